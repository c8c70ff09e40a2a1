// One typed function per endpoint of docs/api-spec.md section 4. Each returns the parsed `data`
// (unknown fields kept) or throws an FsapiError subclass from src/errors.ts.
import type { AnswerHeaders } from './http.js';
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
   * thrown as an ApiError with that status). Transport failures throw TransportError.
   */
  sendTransfer(body: TransferRequest): Promise<TransferResponse>;
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
