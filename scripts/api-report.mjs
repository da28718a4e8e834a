// The public surface: one API Extractor report per entry point, etc/<entry>.api.md, read from the
// built declarations (run `npm run build` first). `npm run api:check` (part of `npm test`) fails when
// the surface differs from the committed reports; `npm run api:update` writes them again, so that a
// change of the surface is a diff in review. One TypeScript program serves every entry.
// node scripts/api-report.mjs [--update] [--dist <folder>]: --dist reads another build's declarations.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CompilerState, Extractor, ExtractorConfig, ExtractorLogLevel } from '@microsoft/api-extractor';

const root = join(import.meta.dirname, '..');
const args = process.argv.slice(2);
const update = args.includes('--update');
const dist = args.includes('--dist') ? resolve(args[args.indexOf('--dist') + 1]) : join(root, 'dist');
const reports = join(root, 'etc');

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const entries = Object.entries(manifest.exports)
  .filter(([, conditions]) => typeof conditions !== 'string')
  .map(([subpath, conditions]) => {
    const name = subpath === '.' ? 'index' : subpath.slice(2);
    const types = (conditions.import ?? conditions).types.replace(/^\.\/dist\//, '');
    return {
      name,
      specifier: subpath === '.' ? manifest.name : `${manifest.name}/${name}`,
      declarations: join(dist, types),
    };
  });
const absent = entries.filter((entry) => !existsSync(entry.declarations));
if (absent.length > 0) {
  console.error(`No declarations for ${absent.map((entry) => entry.specifier).join(', ')}: run npm run build first.`);
  process.exit(1);
}

// Where API Extractor writes each report before it is compared; kept only when one differs.
const scratch = mkdtempSync(join(tmpdir(), 'channel-webhooks-api-'));

const configFor = (entry) =>
  ExtractorConfig.prepare({
    configObjectFullPath: undefined,
    packageJsonFullPath: join(root, 'package.json'),
    configObject: {
      projectFolder: root,
      mainEntryPointFilePath: entry.declarations,
      compiler: {
        overrideTsconfig: {
          compilerOptions: {
            module: 'nodenext',
            moduleResolution: 'nodenext',
            target: 'es2022',
            lib: ['es2023', 'dom'],
            strict: true,
            skipLibCheck: true,
            types: ['node'],
          },
          files: entries.map((other) => other.declarations),
        },
      },
      apiReport: { enabled: true, reportFileName: entry.name, reportFolder: reports, reportTempFolder: scratch },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        // Release tags (@public, @beta) are not used here: every export is public. A subpath's
        // declarations name the root entry's types (WebhookHandler, WebhookStore) without exporting
        // them, and link to them in TSDoc, which TypeDoc resolves (`npm test` checks its links).
        extractorMessageReporting: {
          default: { logLevel: 'warning', addToApiReportFile: true },
          'ae-missing-release-tag': { logLevel: 'none', addToApiReportFile: false },
          'ae-forgotten-export': { logLevel: 'none', addToApiReportFile: false },
          'ae-unresolved-link': { logLevel: 'none', addToApiReportFile: false },
          // Members without a comment of their own: the report would name them by a line of dist/.
          'ae-undocumented': { logLevel: 'none', addToApiReportFile: false },
        },
        tsdocMessageReporting: { default: { logLevel: 'none', addToApiReportFile: false } },
        compilerMessageReporting: { default: { logLevel: 'error' } },
      },
    },
  });

const configs = entries.map((entry) => ({ entry, config: configFor(entry) }));
const compilerState = CompilerState.create(configs[0].config, {
  additionalEntryPoints: entries.map((entry) => entry.declarations),
});

const changed = [];
let errors = 0;
for (const { entry, config } of configs) {
  const result = Extractor.invoke(config, {
    localBuild: false,
    compilerState,
    messageCallback: (message) => {
      // The report itself is compared below; its messages are written into it.
      if (message.logLevel !== ExtractorLogLevel.Error) message.handled = true;
    },
  });
  errors += result.errorCount;
  // API Extractor names the package in the header; the entry is what the report is of.
  const file = `${entry.name}.api.md`;
  const report = readFileSync(join(scratch, file), 'utf8').replace(
    /^## API Report File for "[^"]*"$/m,
    `## API Report File for "${entry.specifier}"`,
  );
  const committed = join(reports, file);
  if (existsSync(committed) && readFileSync(committed, 'utf8') === report) continue;
  changed.push(file);
  writeFileSync(join(scratch, file), report);
  if (update) {
    mkdirSync(reports, { recursive: true });
    writeFileSync(committed, report);
  }
}
const known = new Set(entries.map((entry) => `${entry.name}.api.md`));
const stale = existsSync(reports) ? readdirSync(reports).filter((file) => !known.has(file)) : [];
if (update) for (const file of stale) rmSync(join(reports, file));

if (errors > 0 || update || (changed.length === 0 && stale.length === 0)) {
  rmSync(scratch, { recursive: true, force: true });
}
if (errors > 0) {
  console.error(`API Extractor reported ${errors} error(s) above.`);
  process.exit(1);
}
if (update) {
  const touched = [...changed, ...stale.map((file) => `${file} (removed)`)];
  console.log(touched.length === 0 ? 'API reports unchanged.' : `API reports written: ${touched.join(', ')}`);
} else if (changed.length > 0 || stale.length > 0) {
  const lines = [
    ...changed.map((file) => `  etc/${file}: git diff --no-index etc/${file} ${join(scratch, file)}`),
    ...stale.map((file) => `  etc/${file}: no such entry point any more`),
  ];
  console.error(
    `The public API differs from its reports:\n${lines.join('\n')}\nIf the change is meant, run npm run api:update and commit etc/.`,
  );
  process.exit(1);
} else console.log(`API reports match: ${entries.length} entry points.`);
