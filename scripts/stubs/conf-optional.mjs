// Stand-ins for conf's optional dependencies in the bundle. fsapi gives conf no JSON schema and no
// migrations, so conf never calls ajv, ajv-formats or semver; bundling them anyway cost about 360 KB of
// JavaScript to parse on every API command (measured with `npm run bench`). If a future change starts
// using those conf features, these throw at once instead of misbehaving.
const unavailable = (what) => () => {
  throw new Error(`${what} is not bundled in fsapi (conf is used without schema or migrations)`);
};

export class Ajv2020 {
  constructor() {
    unavailable('ajv')();
  }
}
export default unavailable('ajv-formats');
