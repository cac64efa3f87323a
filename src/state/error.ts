/** The configured state cannot be used; the message says what to change. */
export class StateError extends Error {
  override readonly name = 'StateError';
}
