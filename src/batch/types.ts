// A batch file's row as the reader makes it and the run's workspace keeps it (src/store/batch-workspace.ts).
// Types only, so that the store reads it without importing the reader.
import type { SendRequest } from '../transfers/types.js';

/** One row of the file: what `transfer send` takes, plus where it stands in the file. */
export interface BatchRow extends SendRequest {
  /** The physical line of the file where the row starts (1 is the header). */
  line: number;
  /**
   * The saved payee the row pays (the `payee` column): its account number and bank are filled in from the
   * payee, and its saved name becomes the row's expected name (src/controls/payees.ts, resolvePayeeRows).
   */
  payee?: string | undefined;
}
