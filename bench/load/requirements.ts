/** What a load or saturation run must show, as the list of what it did not (empty: all met). */
import type { LoadReport } from './run-load.js';

export function unmetRequirements(r: LoadReport, saturation: boolean): string[] {
  const a = r.audit;
  const unmet: string[] = [];
  const need = (ok: boolean, what: string) => {
    if (!ok) unmet.push(what);
  };
  need(r.unexpected5xx === 0, `${r.unexpected5xx} 5xx other than a paid call's 503 with Retry-After`);
  need(saturation || r.fiveXx === 0, `${r.fiveXx} 5xx`);
  need(r.noAnswer === 0, `${r.noAnswer} requests without an answer`);
  need(a.lost === 0, `${a.lost} settled payments without their 200, in the run or on replay`);
  need(a.unsettled200 === 0, `${a.unsettled200} 200s without a settlement of their own payment`);
  need(a.replayMismatches === 0, `${a.replayMismatches} replays differing from the 200 their payer got`);
  need(a.unknownSettlements === 0, `${a.unknownSettlements} settlements no request presented`);
  need(a.receiptsMatch, "payTo's receipts differ from settled payments × price");
  need(a.badRefusals === 0, `${a.badRefusals} 503s without Retry-After or with their payment spent`);
  need(
    a.refusedThenBought === a.refusedPresentedAgain,
    `${a.refusedPresentedAgain - a.refusedThenBought} refused payments that did not buy a result when presented again`,
  );
  return unmet;
}
