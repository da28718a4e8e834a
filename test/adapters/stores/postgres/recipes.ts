import { readFileSync } from 'node:fs';

/** The SQL blocks of docs/scaling.md that start with `-- recipe: <name>`, for a table prefix. */
export function retentionRecipes(prefix: string): Record<string, string> {
  const page = readFileSync(new URL('../../../../docs/scaling.md', import.meta.url), 'utf8');
  const found: Record<string, string> = {};
  for (const [, name, sql] of page.matchAll(/```sql\n-- recipe: (\w+)\n([\s\S]*?)```/g))
    found[name!] = sql!.replaceAll('channel_webhooks_', prefix);
  return found;
}
