// The element's styles, adopted by its shadow root as a constructed stylesheet: no <style> element
// and no style attribute, so a Content-Security-Policy with `style-src 'self'` lets them apply.
// Themable through the `--cw-*` custom properties (each read once, into a private `--_*` one) and
// the `::part()` names the markup gives.

/** The stylesheet's text: it reads every `--cw-*` custom property the element takes. */
export const SETTINGS_CSS = /* css */ `
:host {
  --_font: var(--cw-font, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif);
  --_mono: var(--cw-font-mono, ui-monospace, SFMono-Regular, Menlo, Consolas, monospace);
  --_text: var(--cw-text, #1f2328);
  --_muted: var(--cw-muted, #59636e);
  --_surface: var(--cw-surface, #ffffff);
  --_raised: var(--cw-surface-raised, #f6f8fa);
  --_border: var(--cw-border, #d1d9e0);
  --_accent: var(--cw-accent, #0969da);
  --_on-accent: var(--cw-on-accent, #ffffff);
  --_link: var(--cw-link, #0969da);
  --_danger: var(--cw-danger, #cf222e);
  --_danger-fill: var(--cw-danger-fill, #cf222e);
  --_on-danger: var(--cw-on-danger, #ffffff);
  --_success: var(--cw-success, #1a7f37);
  --_success-surface: var(--cw-success-surface, #dafbe1);
  --_warning-surface: var(--cw-warning-surface, #fff8c5);
  --_warning-text: var(--cw-warning-text, #3b2300);
  --_warning-border: var(--cw-warning-border, #d4a72c);
  --_focus: var(--cw-focus, #0969da);
  --_radius: var(--cw-radius, 8px);
  --_backdrop: var(--cw-backdrop, rgb(1 4 9 / 0.5));
  display: block;
  container-type: inline-size;
  color: var(--_text);
  font: 400 var(--cw-font-size, 0.9375rem) / 1.5 var(--_font);
  color-scheme: light dark;
}
@media (prefers-color-scheme: dark) {
  :host {
    --_text: var(--cw-text, #e6edf3);
    --_muted: var(--cw-muted, #9198a1);
    --_surface: var(--cw-surface, #0d1117);
    --_raised: var(--cw-surface-raised, #151b23);
    --_border: var(--cw-border, #3d444d);
    --_accent: var(--cw-accent, #1f6feb);
    --_link: var(--cw-link, #4493f8);
    --_danger: var(--cw-danger, #f85149);
    --_danger-fill: var(--cw-danger-fill, #da3633);
    --_success: var(--cw-success, #3fb950);
    --_success-surface: var(--cw-success-surface, #12261e);
    --_warning-surface: var(--cw-warning-surface, #272115);
    --_warning-text: var(--cw-warning-text, #f0d78a);
    --_warning-border: var(--cw-warning-border, #9e6a03);
    --_focus: var(--cw-focus, #4493f8);
  }
}
:host([hidden]), [hidden] { display: none !important; }
*, *::before, *::after { box-sizing: border-box; }
h2, h3, p, ol, ul, pre { margin: 0; }
code, pre, .url { font-family: var(--_mono); font-size: 0.875em; }
a { color: var(--_link); }
:focus-visible { outline: 2px solid var(--_focus); outline-offset: 2px; }
.visually-hidden {
  position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden;
  clip-path: inset(50%); white-space: nowrap; border: 0;
}

.base { display: grid; gap: 0.75rem; }
.header { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 0.5rem 1rem; }
.title { font-size: 1.125rem; font-weight: 600; line-height: 1.3; }
.title:focus { outline: none; }
.alert:empty { display: none; }
.alert {
  display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem 1rem;
  padding: 0.625rem 0.75rem; border: 1px solid var(--_danger); border-radius: var(--_radius);
  color: var(--_text); background: var(--_surface);
}
.alert-text { flex: 1 1 16rem; }
.alert-text::before { content: "⚠ "; color: var(--_danger); }
.loading, .history-empty, .not-allowed { color: var(--_muted); }

.button {
  display: inline-flex; align-items: center; justify-content: center; gap: 0.375rem;
  min-height: 2.25rem; padding: 0.375rem 0.875rem; border: 1px solid var(--_border); border-radius: calc(var(--_radius) - 2px);
  background: var(--_raised); color: var(--_text); font: inherit; font-weight: 500; line-height: 1.2; cursor: pointer;
}
.button:hover { border-color: var(--_muted); }
.button.primary { background: var(--_accent); border-color: var(--_accent); color: var(--_on-accent); }
.button.primary:hover { filter: brightness(1.08); }
.button.danger { color: var(--_danger); border-color: var(--_border); }
.button.danger:hover { border-color: var(--_danger); }
.dialog .button.danger { background: var(--_danger-fill); border-color: var(--_danger-fill); color: var(--_on-danger); }
.button[aria-disabled="true"] { opacity: 0.7; cursor: progress; }
.button.icon { min-height: 2rem; min-width: 2rem; padding: 0; font-size: 1.25rem; line-height: 1; background: transparent; border-color: transparent; }
.button.icon:hover { border-color: var(--_border); }

.list { display: grid; gap: 0.5rem; padding: 0; list-style: none; }
.item {
  display: grid; grid-template-columns: auto minmax(0, 1fr) auto; align-items: start; gap: 0.25rem 0.75rem;
  padding: 0.75rem; border: 1px solid var(--_border); border-radius: var(--_radius); background: var(--_surface);
}
.item.revoked { background: var(--_raised); }
.item.revoked .name { color: var(--_muted); }
.item-main { display: grid; gap: 0.125rem; min-width: 0; }
.item-head { display: flex; flex-wrap: wrap; align-items: center; gap: 0.25rem 0.5rem; }
.name { font-size: 1rem; font-weight: 600; overflow-wrap: anywhere; }
.description { overflow-wrap: anywhere; white-space: pre-line; }
.meta { display: flex; flex-wrap: wrap; gap: 0 0.75rem; color: var(--_muted); font-size: 0.8125rem; }
.actions { display: flex; flex-wrap: wrap; justify-content: flex-end; gap: 0.375rem; }
@container (max-width: 34rem) {
  .item { grid-template-columns: auto minmax(0, 1fr); }
  .actions { grid-column: 1 / -1; justify-content: stretch; }
  .actions .button { flex: 1 1 auto; padding-inline: 0.5rem; }
  .item.revoked .actions .button { flex: 0 1 auto; padding-inline: 0.875rem; }
}
.status {
  display: inline-block; padding: 0 0.5rem; border: 1px solid transparent; border-radius: 999px;
  font-size: 0.75rem; font-weight: 600; line-height: 1.5rem;
}
.status.active { background: var(--_success-surface); color: var(--_success); }
.status.revoked { background: var(--_surface); color: var(--_muted); border-color: var(--_border); }

.avatar {
  display: grid; place-items: center; width: 2.5rem; height: 2.5rem; border-radius: 50%; overflow: hidden;
  font-weight: 700; color: #ffffff;
}
.avatar img { width: 100%; height: 100%; object-fit: cover; }
.tone-0 { background: #0969da; } .tone-1 { background: #8250df; } .tone-2 { background: #1a7f37; }
.tone-3 { background: #bc4c00; } .tone-4 { background: #bf3989; } .tone-5 { background: #57606a; }

.empty {
  display: grid; gap: 0.625rem; justify-items: start; padding: 1.25rem;
  border: 1px dashed var(--_border); border-radius: var(--_radius);
}
.empty-title { font-size: 1rem; font-weight: 600; }
.example, .curl {
  max-width: 100%; padding: 0.625rem 0.75rem; border: 1px solid var(--_border); border-radius: calc(var(--_radius) - 2px);
  background: var(--_raised); white-space: pre-wrap; overflow-wrap: anywhere;
}
/* A URL breaks anywhere, not first at the spaces that indent it. */
.curl { word-break: break-all; }

.dialog {
  width: min(38rem, calc(100vw - 1.5rem)); max-height: calc(100dvh - 1.5rem); padding: 0;
  border: 1px solid var(--_border); border-radius: var(--_radius);
  background: var(--_surface); color: var(--_text); box-shadow: 0 12px 32px rgb(1 4 9 / 0.3);
}
.dialog::backdrop { background: var(--_backdrop); }
@media (prefers-reduced-motion: no-preference) {
  .dialog[open] { animation: cw-enter 160ms ease-out; }
  .dialog[open]::backdrop { animation: cw-fade 160ms ease-out; }
}
@keyframes cw-enter { from { opacity: 0; transform: translateY(0.5rem) scale(0.98); } }
@keyframes cw-fade { from { opacity: 0; } }
.dialog-head {
  display: flex; align-items: flex-start; justify-content: space-between; gap: 1rem;
  padding: 1rem 1rem 0 1.25rem;
}
.dialog-title { font-size: 1.125rem; font-weight: 600; line-height: 1.4; overflow-wrap: anywhere; padding-top: 0.125rem; }
.dialog-body { display: grid; gap: 0.75rem; padding: 0.75rem 1.25rem 1.25rem; }
.dialog-actions { display: flex; flex-wrap: wrap; justify-content: flex-end; gap: 0.5rem; padding-top: 0.25rem; }
.row { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; }
.label { font-weight: 600; }
.warning {
  padding: 0.625rem 0.75rem; border: 1px solid var(--_warning-border); border-radius: calc(var(--_radius) - 2px);
  background: var(--_warning-surface); color: var(--_warning-text);
}
.warning::before { content: "⚠ "; }
/* A statement about the URL the reader had, set apart from the field labels around it. */
.notice {
  padding: 0.5rem 0.75rem; border: 1px solid var(--_border); border-left: 4px solid var(--_danger);
  border-radius: calc(var(--_radius) - 2px); background: var(--_raised);
}
.url-row .url { flex: 1 1 16rem; }
input, textarea {
  min-width: 0; width: 100%; padding: 0.5rem 0.625rem; border: 1px solid var(--_border); border-radius: calc(var(--_radius) - 2px);
  background: var(--_surface); color: var(--_text); font: inherit;
}
textarea { resize: vertical; }
input[aria-invalid="true"], textarea[aria-invalid="true"] { border-color: var(--_danger); }
.form { display: grid; gap: 0.875rem; }
.field { display: grid; gap: 0.25rem; }
.optional { color: var(--_muted); font-weight: 400; }
.help { color: var(--_muted); font-size: 0.8125rem; }
.field-error:empty, .form-error:empty, .test-result:empty { display: none; }
.field-error, .form-error { color: var(--_danger); font-weight: 500; }
.copy-status { color: var(--_success); font-weight: 500; }
.test-result.ok { color: var(--_success); font-weight: 500; }
.test-result.refused { color: var(--_danger); font-weight: 500; }

.history { display: grid; gap: 0.5rem; padding: 0; list-style: none; }
.post { display: grid; gap: 0.25rem; padding: 0.625rem 0.75rem; border: 1px solid var(--_border); border-radius: calc(var(--_radius) - 2px); }
.post.refused { border-left: 4px solid var(--_danger); }
.post.accepted { border-left: 4px solid var(--_success); }
.post-head { display: flex; flex-wrap: wrap; align-items: center; gap: 0.25rem 0.5rem; color: var(--_muted); font-size: 0.8125rem; }
.post-code { color: var(--_text); font-weight: 600; }
.badge { padding: 0 0.375rem; border-radius: 4px; font-family: var(--_mono); font-weight: 700; }
.badge.accepted { background: var(--_success-surface); color: var(--_success); }
.badge.refused { background: var(--_danger-fill); color: var(--_on-danger); }
.outcome { overflow-wrap: anywhere; }
.errors { display: grid; gap: 0.375rem; padding-left: 1.25rem; }
.error-entry { overflow-wrap: anywhere; }
.pointer { font-weight: 600; }
.hint { margin-top: 0.125rem; color: var(--_muted); }
.hint strong { color: var(--_text); }
/* The names the sender must use: as legible as the rest, though smaller and monospaced. */
.hint code { color: var(--_text); }

@media (forced-colors: active) {
  .status, .badge, .avatar { border: 1px solid CanvasText; }
  .button.primary, .dialog .button.danger { border: 2px solid ButtonText; }
}
`;

let sheet: CSSStyleSheet | undefined;

/** The one stylesheet every instance adopts. */
export function styleSheet(): CSSStyleSheet {
  if (sheet === undefined) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(SETTINGS_CSS);
  }
  return sheet;
}
