// See conf-optional.mjs: conf only uses semver for migrations, which fsapi does not use.
const unavailable = () => {
  throw new Error('semver is not bundled in fsapi (conf is used without migrations)');
};
export default { eq: unavailable, clean: unavailable, satisfies: unavailable, lte: unavailable, gt: unavailable };
