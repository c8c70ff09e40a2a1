// What `approvals approve|reject|withdraw` say when the decision they asked for did not happen: the store
// read the request again inside the transaction that would have recorded it (src/store/controls.ts
// decide), and found it decided by someone else meanwhile, or the policy's four eyes, or a withdrawal by
// someone other than who asked. Each names who, and says that nothing was done.
import { ExitCode, FsapiError, NotFoundError } from '../../errors.js';
import type { Actor } from '../../common/actor.js';
import type { ApprovalRequest, DecideResult } from '../../store/controls.js';
import { decidedBy } from '../../ui/controls.js';
import { isoTimeCell } from '../../ui/output.js';
import { DEFAULT_POLICY_TIME_ZONE } from '../../common/time-zone.js';

/** Four eyes: who asked may not approve. Exit 1, nothing approved or sent. */
export class FourEyesError extends FsapiError {
  constructor(request: ApprovalRequest, actor: Actor) {
    const asked = request.actor === undefined ? 'by someone fsapi did not record' : `by ${request.actor}`;
    super(
      `four eyes: request ${request.id} was asked ${asked}, and you act as ${actor.name} (${actor.kind}): another member approves it; nothing was approved or sent`,
      {
        exitCode: ExitCode.failed,
        code: 'four_eyes',
        hint:
          request.actor === undefined
            ? `it was held before fsapi recorded who asked: reject it (fsapi approvals reject ${request.id}) and send it again`
            : `someone else approves it, as themselves: fsapi approvals approve ${request.id}`,
      },
    );
  }
}

/** Who made a decision just recorded: the operator's name, and the actor when it says more (`root@vm acting as bola`). */
export function actingWords(operator: string, actor: Actor): string {
  return operator.includes(actor.name) || operator.startsWith(`${actor.name}@`) ? operator : `${operator} acting as ${actor.name}`;
}

/** The last decision of a request, in words: `approved by bola@b (bola) at 2026-03-02 10:04 WAT`. */
export function lastDecisionWords(request: ApprovalRequest, timeZone: string = DEFAULT_POLICY_TIME_ZONE): string {
  const last = request.decisions.at(-1);
  if (!last) return `${request.status} by someone`;
  return `${last.decision} by ${decidedBy(last)} at ${isoTimeCell(last.at, timeZone, { zone: true }).text}${last.reason ? ` (${last.reason})` : ''}`;
}

/**
 * The error for a decision that did not happen (`result.kind` other than `decided`); `nothing` says what was
 * not done ("nothing was sent from here", "nothing was changed").
 */
export function undecidedError(
  id: string,
  result: Exclude<DecideResult, { kind: 'decided' }>,
  nothing: string,
  ownerWords: string,
  timeZone?: string,
): FsapiError {
  switch (result.kind) {
    case 'not-found':
      return new NotFoundError(`no approval request ${id} in ${ownerWords}`, 'fsapi approvals list shows the requests');
    case 'already':
      return new FsapiError(`request ${id} was ${lastDecisionWords(result.request, timeZone)}; ${nothing}`, {
        exitCode: ExitCode.failed,
        code: 'already_decided',
        hint: `fsapi approvals show ${id}`,
      });
    case 'same-actor':
      return new FourEyesError(result.request, result.actor);
    case 'not-requester':
      return new FsapiError(
        `request ${id} was asked by ${result.request.actor ?? 'someone fsapi did not record'}, and you act as ${result.actor.name} (${result.actor.kind}): only who asked withdraws a request; ${nothing}`,
        { exitCode: ExitCode.failed, code: 'not_requester', hint: `a person may reject it instead: fsapi approvals reject ${id} --reason ...` },
      );
  }
}
