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

export class FsapiError extends Error {
  readonly exitCode: ExitCode;
  readonly hint: string | undefined;
  constructor(message: string, options: { exitCode: ExitCode; hint?: string; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.exitCode = options.exitCode;
    this.hint = options.hint;
  }
}

/** Invalid usage or input. Raised before anything is sent. Exit 2. */
export class UsageError extends FsapiError {
  constructor(message: string, hint?: string) {
    super(message, { exitCode: ExitCode.usage, hint });
  }
}

/** The request failed or the API refused it. Exit 1. */
export class ApiError extends FsapiError {
  readonly status: number | undefined;
  readonly apiMessage: string | undefined;
  /** The body was the spec's error shape (a JSON object with `success: false`): src/transfers/refusal-proof.ts reads it. */
  readonly errorShape: boolean;
  constructor(message: string, options: { status?: number; apiMessage?: string; hint?: string; cause?: unknown; errorShape?: boolean } = {}) {
    super(message, { exitCode: ExitCode.failed, hint: options.hint, cause: options.cause });
    this.status = options.status;
    this.apiMessage = options.apiMessage;
    this.errorShape = options.errorShape ?? false;
  }
}

/** The request never produced a readable answer: network error, timeout, HTML page, 5xx. */
export class TransportError extends ApiError {
  readonly kind: 'network' | 'timeout' | 'bad-gateway' | 'unreadable';
  constructor(
    kind: TransportError['kind'],
    message: string,
    options: { status?: number; hint?: string; cause?: unknown } = {},
  ) {
    super(message, options);
    this.kind = kind;
  }
}

/** Authentication needed or failed. Exit 3. */
export class AuthError extends FsapiError {
  constructor(message: string, hint = 'run fsapi auth login') {
    super(message, { exitCode: ExitCode.auth, hint });
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
    });
  }
}
