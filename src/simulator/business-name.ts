// The simulated business's name, as `--business-name` gives it: the first word becomes the reference
// prefix every transfer must carry (spec 4.9), derived exactly as the client derives it.
import { referencePrefix } from '../api/reference.js';
import { UsageError } from '../errors.js';

export const MAX_BUSINESS_NAME_LENGTH = 100;

/** The name, spaces tidied; a usage error when it gives no reference prefix. */
export function checkBusinessName(name: string, flag: string): string {
  const tidy = name.trim().replace(/\s+/g, ' ');
  if (tidy === '' || tidy.length > MAX_BUSINESS_NAME_LENGTH) {
    throw new UsageError(`${flag} needs a business name of 1 to ${MAX_BUSINESS_NAME_LENGTH} characters`);
  }
  try {
    referencePrefix(tidy);
  } catch {
    throw new UsageError(`${flag} ${JSON.stringify(name)}: the first word must hold letters or digits (it becomes the reference prefix)`);
  }
  return tidy;
}
