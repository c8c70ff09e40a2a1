// Stand-in for @inquirer/editor in the bundle. @inquirer/prompts re-exports its editor prompt, which brings
// @inquirer/external-editor, iconv-lite and chardet: about 650 KB, half of dist/engine.cjs, that every
// command would read (and Node 20 would parse) for a prompt fsapi never shows (src/ui/prompt.ts asks with
// confirm, select, input and password only). If a future change uses it, it throws at once.
export default function editor() {
  throw new Error('the editor prompt is not bundled in fsapi (scripts/stubs/inquirer-editor.mjs)');
}
