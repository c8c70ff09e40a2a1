// One typed function per endpoint of docs/api-spec.md section 4. Each returns the parsed `data`
// (unknown fields kept) or throws an FsapiError subclass from src/errors.ts.
import type {
  Bank,
  ClientEnquiry,
  ClientListItem,
  CorporateClient,
  CorporateClientRequest,
  IndividualClient,
  IndividualClientRequest,
  NameEnquiryResult,
  PrimaryAccount,
  TransactionRecord,
  TransferRequest,
  TransferResponse,
  TsqResult,
} from './schemas.js';

export interface ClientListQuery {
  accountType?: string;
  validityType?: string;
  status?: string;
  page?: number;
  limit?: number;
}

export interface PageQuery {
  page?: number;
  limit?: number;
}

export interface RawResponse {
  status: number;
  /** Header names in lower case. */
  headers: AnswerHeaders;
  /** Parsed JSON when the body is JSON, else the text. */
  body: unknown;
}

export interface Api {
  /** Where requests go, for messages ("cannot reach <host>"). `local` for the in-process simulator. */
  readonly baseUrl: string;
  getAccount(): Promise<PrimaryAccount>;
  listBanks(): Promise<Bank[]>;
  nameEnquiry(bankCode: string, accountNumber: string): Promise<NameEnquiryResult>;
  /**
   * Sent exactly once: never retried nor repeated, whatever happens (a 401/403 renews the token and is
   * thrown as an ApiError with that status). Transport failures throw TransportError. `mayLeave` is asked
   * right before the POST goes on the wire; what it throws stops it there, unsent.
   */
  sendTransfer(body: TransferRequest, options?: { mayLeave?: () => void }): Promise<TransferResponse>;
  getTransaction(reference: string): Promise<TransactionRecord>;
  transferRequery(transactionId: string): Promise<TsqResult>;
  listTransactions(query: PageQuery): Promise<TransactionRecord[]>;
  listClients(query: ClientListQuery): Promise<ClientListItem[]>;
  getClient(accountNumber: string): Promise<ClientEnquiry>;
  createIndividualClient(body: IndividualClientRequest): Promise<IndividualClient>;
  createCorporateClient(body: CorporateClientRequest): Promise<CorporateClient>;
  /** Any endpoint, authenticated like the others; non-2xx answers are returned, not thrown. */
  raw(method: string, path: string, options?: { json?: unknown; searchParams?: URLSearchParams }): Promise<RawResponse>;
}

// ---- one HTTP exchange (src/api/http.ts sends it, src/api/node-transport.ts puts it on the wire) ----

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

export interface HttpRequest {
  method: HttpMethod;
  /** Below the base address, starting with `/`. */
  path: string;
  searchParams?: URLSearchParams;
  json?: unknown;
  headers?: Record<string, string>;
  /** Called when the request has been handed to the OS (each try): the caller can prepare while the API works. */
  onSent?: () => void;
  /** Called right before each try goes on the wire; what it throws stops the request there, unsent. */
  mayLeave?: () => void;
}

/** Header names in lower case. */
export type AnswerHeaders = Readonly<Record<string, string>>;

export interface HttpAnswer {
  status: number;
  headers: AnswerHeaders;
  contentType: string;
  text: string;
}

export interface Http {
  /** The base address, or `local` for the in-process simulator. */
  readonly baseUrl: string;
  /** How messages name the other end: `127.0.0.1:4010`, `api.example.ng`, `the local simulator`. */
  readonly host: string;
  readonly inProcess: boolean;
  send(request: HttpRequest): Promise<HttpAnswer>;
}

/** One request as it goes on the wire; `signal` aborts it (the deadline). */
export interface WireRequest {
  method: HttpMethod;
  url: URL;
  headers: Record<string, string>;
  body: Buffer | undefined;
  signal: AbortSignal;
  /** See HttpRequest.onSent. */
  onSent?: () => void;
}

export interface WireAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Sends one request and reads its whole answer, or fails with the error of the connection. */
export type Transport = (request: WireRequest) => Promise<WireAnswer>;

/**
 * The in-process simulator a `local` profile talks to (src/simulator/index.ts, openLocalSimulator): a fetch
 * of its own, and close. Opened by the context (src/runtime.ts), which the simulator's room sits above.
 */
export interface LocalApi {
  fetch(request: Request): Promise<Response>;
  close(): void;
}
