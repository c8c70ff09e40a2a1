import { run } from '../run.js';
import { resetSpec } from './reset.spec.js';
import { checkBusinessName } from '../../simulator/business-name.js';

export default run(resetSpec, async (ctx, opts, _args) => {
  const given = opts.businessName;
  const businessName = given === undefined ? undefined : checkBusinessName(String(given), '--business-name');
  const { resetLocalSimulator } = await import('../../simulator/index.js');
  const file = await resetLocalSimulator(ctx.paths.dataDir, businessName);
  ctx.io.note(`local simulator reset: ${file} starts again from the seed${businessName ? `, business ${businessName}` : ''}`);
});
