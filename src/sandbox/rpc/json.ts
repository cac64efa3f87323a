const RAW = '\u0000raw:';
const RAW_PATTERN = /"\\u0000raw:(-?[0-9.e+]+)"/g;

/**
 * JSON.stringify that writes bigints as bare integers and `uiAmount` as a float (`5.0`), as agave does.
 * kit parses every bare integer into a bigint unless its key path is allow-listed, so `5` and `5.0` are
 * different values to a kit client. Node 20 has no JSON.rawJSON, hence the sentinel and the regex.
 */
export function stringifyRpc(value: unknown): string {
  return JSON.stringify(value, (key, item) => {
    if (typeof item === 'bigint') return `${RAW}${item}`;
    if (key === 'uiAmount' && typeof item === 'number' && Number.isInteger(item) && Math.abs(item) < 1e21) {
      return `${RAW}${item}.0`;
    }
    return item;
  }).replace(RAW_PATTERN, '$1');
}
