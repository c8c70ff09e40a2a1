// chalk's own colour probe (its vendored supports-color) loads node:tty and reads the environment when
// chalk is loaded. fsapi never uses chalk's default instances: it decides colour itself (src/ui/io.ts) and
// makes `new Chalk({ level })` (src/ui/style.ts). So the probe answers "no colour" without looking, and
// the default instances, which nothing uses, stay uncoloured.
export default { stdout: false, stderr: false };
