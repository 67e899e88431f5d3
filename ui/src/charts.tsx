import { TableHead } from './shared.js';
/** Small SVG charts; each carries its numbers as a table for screen readers and keyboard users. */

export function BarChart(props: { title: string; data: Array<[string, number]>; id: string }) {
  const max = Math.max(1, ...props.data.map(([, v]) => v));
  const barH = 22;
  const width = 360;
  const labelW = 110;
  return (
    <figure class="chart" aria-labelledby={`${props.id}-cap`}>
      <figcaption id={`${props.id}-cap`}>{props.title}</figcaption>
      <svg viewBox={`0 0 ${width} ${props.data.length * barH + 4}`} aria-hidden="true" focusable="false">
        {props.data.map(([label, value], i) => (
          <g key={label}>
            <text x={labelW - 6} y={i * barH + 15} text-anchor="end" class="axis">
              {label}
            </text>
            <rect
              x={labelW}
              y={i * barH + 3}
              width={Math.max(value > 0 ? 2 : 0, ((width - labelW - 50) * value) / max)}
              height={barH - 6}
              class={`bar cat-${i % 6}`}
            />
            <text x={labelW + 4 + ((width - labelW - 50) * value) / max} y={i * barH + 15} class="axis">
              {value}
            </text>
          </g>
        ))}
      </svg>
      <DataTable caption={props.title} head={['', 'count']} rows={props.data.map(([k, v]) => [k, String(v)])} />
    </figure>
  );
}

/** Stacked columns per day (growth over time). */
export function StackedColumns(props: {
  title: string;
  id: string;
  days: Array<{ day: string; byLayer: Record<string, number>; total: number }>;
  keys: readonly string[];
}) {
  const width = 640;
  const height = 160;
  const days = props.days.slice(-60);
  const max = Math.max(1, ...days.map((d) => d.total));
  const colW = days.length === 0 ? 0 : Math.min(40, (width - 20) / days.length);
  return (
    <figure class="chart wide" aria-labelledby={`${props.id}-cap`}>
      <figcaption id={`${props.id}-cap`}>{props.title}</figcaption>
      {days.length === 0 ? (
        <p>No data yet.</p>
      ) : (
        <svg viewBox={`0 0 ${width} ${height + 20}`} aria-hidden="true" focusable="false">
          {days.map((d, i) => {
            let y = height;
            return (
              <g key={d.day}>
                {props.keys.map((k, j) => {
                  const h = ((d.byLayer[k] ?? 0) * (height - 10)) / max;
                  y -= h;
                  return <rect key={k} x={10 + i * colW + 1} y={y} width={Math.max(1, colW - 2)} height={h} class={`bar cat-${j % 6}`} />;
                })}
              </g>
            );
          })}
          <text x={10} y={height + 16} class="axis">
            {days[0]?.day}
          </text>
          <text x={width - 10} y={height + 16} class="axis" text-anchor="end">
            {days[days.length - 1]?.day}
          </text>
        </svg>
      )}
      <p class="legend">
        {props.keys.map((k, j) => (
          <span key={k}>
            <span class={`swatch cat-${j % 6}`} /> {k}{' '}
          </span>
        ))}
      </p>
      <DataTable
        caption={props.title}
        head={['day', ...props.keys, 'total']}
        rows={days.map((d) => [d.day, ...props.keys.map((k) => String(d.byLayer[k] ?? 0)), String(d.total)])}
      />
    </figure>
  );
}

function DataTable(props: { caption: string; head: string[]; rows: string[][] }) {
  return (
    <details class="data">
      <summary>Numbers: {props.caption}</summary>
      <table>
        <caption class="sr-only">{props.caption}</caption>
        <TableHead columns={props.head} />
        <tbody>
          {props.rows.map((r, i) => (
            <tr key={i}>
              {r.map((c, j) =>
                j === 0 ? (
                  <th key={j} scope="row">
                    {c}
                  </th>
                ) : (
                  <td key={j}>{c}</td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
