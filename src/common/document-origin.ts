// Where a document's figures come from, said on the document. A receipt or a statement made from the
// built-in simulator or from a sandbox looks like one of real money, and fake proof of payment is a known
// fraud: so every page of such a PDF carries a mark (src/documents/origin-mark.ts), its metadata says it,
// and `--json` names the environment. Production documents carry no mark.
//
// fsapi knows the environment from the profile it runs under (docs/decisions.md, "Documents say where
// they come from"): `local` is the built-in simulator (in process or served: `--base-url`), `sandbox` and
// `production` are what `auth login --env` made them. A served simulator logged in to as `sandbox` makes
// sandbox documents: marked too.

export type DocumentEnvironment = 'simulator' | 'sandbox' | 'production';

/** The environment of a profile (`local`, `sandbox`, `production`) as documents name it. */
export function documentEnvironment(profileEnv: string): DocumentEnvironment {
  if (profileEnv === 'production') return 'production';
  return profileEnv === 'sandbox' ? 'sandbox' : 'simulator';
}

/** The words every page of a document not of real money carries; undefined for production. */
export function originMark(environment: DocumentEnvironment): string | undefined {
  if (environment === 'production') return undefined;
  return `${environment.toUpperCase()}: no real money moved, not proof of payment`;
}
