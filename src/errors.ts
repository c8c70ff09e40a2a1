// Every failure a user can see is one of these. The exit codes are the contract's (docs/exit-codes in
// docs/cli-contract.md): scripts depend on them, so each error class fixes its own code.

export const ExitCode = {
  ok: 0,
  failed: 1,
  usage: 2,
  auth: 3,
  cancelled: 4,
  outcomeUnknown: 5,
  stillPending: 6,
  heldForApproval: 7,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * The `code` of the `--json` error object (docs/scripting.md) when an error names none: one machine word
 * per exit code. Scripts branch on these words, so a word once given is never changed.
 */
const CODE_OF_EXIT: Record<ExitCode, string> = {
  0: 'ok',
  1: 'failed',
  2: 'usage',
  3: 'auth_required',
  4: 'cancelled',
  5: 'outcome_unknown',
  6: 'still_pending',
  7: 'held_for_approval',
};

export class FsapiError extends Error {
  readonly exitCode: ExitCode;
  readonly hint: string | undefined;
  /** A stable machine word for this kind of failure, e.g. `not_found` (the `--json` error object's `code`). */
  readonly code: string;
  constructor(message: string, options: { exitCode: ExitCode; hint?: string; cause?: unknown; code?: string }) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.exitCode = options.exitCode;
    this.hint = options.hint;
    this.code = options.code ?? CODE_OF_EXIT[options.exitCode];
  }
}

/**
 * What was asked for is not there: a local record (an approval request, a payee, a transfer sent from
 * here) or the API's (a transaction, a client account). Exit 1, as an API lookup that finds nothing has
 * always been: the command was well formed, and the thing may yet exist (docs/scripting.md).
 */
export class NotFoundError extends FsapiError {
  constructor(message: string, hint?: string) {
    super(message, { exitCode: ExitCode.failed, hint, code: 'not_found' });
  }
}

/** Invalid usage or input. Raised before anything is sent. Exit 2. */
export class UsageError extends FsapiError {
  constructor(message: string, hint?: string, code = 'usage') {
    super(message, { exitCode: ExitCode.usage, hint, code });
  }
}

/**
 * A request its caller stopped before it left (a transfer's POST past the time its claim allows it,
 * src/store/run-lease.ts): nothing was sent. Exit 1.
 */
export class NotSentError extends FsapiError {
  constructor(message: string) {
    super(message, { exitCode: ExitCode.failed, code: 'store_lease_lost' });
  }
}

/** The request failed or the API refused it. Exit 1. */
export class ApiError extends FsapiError {
  readonly status: number | undefined;
  readonly apiMessage: string | undefined;
  /** The body was the spec's error shape (a JSON object with `success: false`): src/transfers/refusal-proof.ts reads it. */
  readonly errorShape: boolean;
  /** A 429's `Retry-After`, in milliseconds from the answer: how long the API asked to be left alone. */
  readonly retryAfterMs: number | undefined;
  constructor(
    message: string,
    options: { status?: number; apiMessage?: string; hint?: string; cause?: unknown; errorShape?: boolean; code?: string; retryAfterMs?: number } = {},
  ) {
    // A 4xx is the API saying no; anything else (no status, 5xx, a shape fsapi cannot read) is a failure.
    const code = options.code ?? (options.status !== undefined && options.status >= 400 && options.status < 500 ? 'api_refused' : 'api_failed');
    super(message, { exitCode: ExitCode.failed, hint: options.hint, cause: options.cause, code });
    this.status = options.status;
    this.apiMessage = options.apiMessage;
    this.errorShape = options.errorShape ?? false;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** The request never produced a readable answer: network error, timeout, HTML page, 5xx. */
export class TransportError extends ApiError {
  readonly kind: 'network' | 'timeout' | 'bad-gateway' | 'unreadable';
  constructor(kind: TransportError['kind'], message: string, options: { status?: number; hint?: string; cause?: unknown } = {}) {
    super(message, { ...options, code: kind === 'unreadable' ? 'unreadable_answer' : kind.replace('-', '_') });
    this.kind = kind;
  }
}

/** Authentication needed or failed. Exit 3. */
export class AuthError extends FsapiError {
  constructor(message: string, hint = 'run fsapi auth login') {
    super(message, { exitCode: ExitCode.auth, hint, code: 'auth_required' });
  }
}

/** Cancelled at a confirmation prompt; nothing was sent. Exit 4. */
export class CancelledError extends FsapiError {
  constructor(message = 'cancelled; nothing was sent') {
    super(message, { exitCode: ExitCode.cancelled });
  }
}

/** A money-moving request was sent and its outcome is unknown. Exit 5. */
export class OutcomeUnknownError extends FsapiError {
  readonly reference: string;
  constructor(reference: string, detail: string) {
    super(`outcome unknown for ${reference}: ${detail}`, {
      exitCode: ExitCode.outcomeUnknown,
      hint: `do not resend; run fsapi transfer status ${reference}`,
    });
    this.reference = reference;
  }
}

/** `--wait` ended while the transfer was still pending: it may still succeed. Exit 6. */
export class StillPendingError extends FsapiError {
  readonly reference: string;
  constructor(reference: string, detail: string) {
    super(`${reference} is ${detail}`, {
      exitCode: ExitCode.stillPending,
      hint: `it may still succeed; check again later: fsapi transfer status ${reference} --wait`,
    });
    this.reference = reference;
  }
}

/** Held by the profile's payment policy: nothing was sent; a person approves it at a terminal. Exit 7. */
export class HeldForApprovalError extends FsapiError {
  readonly requestId: string;
  constructor(requestId: string, message: string) {
    super(message, { exitCode: ExitCode.heldForApproval, hint: `a person at a terminal sends it: fsapi approvals approve ${requestId}` });
    this.requestId = requestId;
  }
}

/** A local file (config, state, journal) exists but cannot be read. Never reset silently. */
export class CorruptFileError extends FsapiError {
  constructor(path: string, detail: string) {
    // One line, even when the detail quotes a parser's message about a multi-line file.
    super(`cannot read ${path}: ${detail.replace(/\s+/g, ' ').trim()}`, {
      exitCode: ExitCode.failed,
      hint: 'fix or move the file away; fsapi does not overwrite it',
      code: 'corrupt_file',
    });
  }
}
