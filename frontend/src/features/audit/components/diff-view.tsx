import type { AuditChange } from '@/lib/api-types';

function show(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

/** One row per changed value: what it was and what it became. Absent values show as "—". */
export function DiffView({ changes }: { changes: AuditChange[] }) {
  if (changes.length === 0) return <p className="small muted">No field-level changes recorded for this entry.</p>;
  return (
    <table className="table audit-diff">
      <caption className="sr-only">Changed fields</caption>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Before</th>
          <th scope="col">After</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((c) => (
          <tr key={c.path}>
            <th scope="row" className="mono small">
              {c.path}
            </th>
            <td className="mono small audit-before">
              {show(c.before) || <span className="faint" aria-label="absent">—</span>}
            </td>
            <td className="mono small audit-after">
              {show(c.after) || <span className="faint" aria-label="absent">—</span>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
