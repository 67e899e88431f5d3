/**
 * The statistical layer: a metric over a concept — count n, mean and std, a rate k/n, a
 * trend (regression slope with R²), a correlation — with a verbal form such as
 * "mug success rate: 0.875 (7/8)".
 */
import { z } from 'zod';

const finite = z.number().refine(Number.isFinite, 'must be a finite number');
const label = z.string().trim().min(1).max(200);

/** The numbers of one statistical record (`data.metric`). */
export const statisticalMetricSchema = z
  .object({
    /** What is measured, e.g. `success rate`, `salience`. */
    name: label,
    /** The concept it is about, by name (e.g. `mug`) and, when known, by record id. */
    concept: label.optional(),
    conceptId: z.string().min(1).max(100).optional(),
    unit: z.string().max(40).optional(),
    n: z.number().int().min(0),
    /** Successes of a rate; `rate` = k / n. */
    k: z.number().int().min(0).optional(),
    rate: z.number().min(0).max(1).optional(),
    mean: finite.optional(),
    std: z.number().min(0).optional(),
    min: finite.optional(),
    max: finite.optional(),
    /** Trend: regression slope per `per` (default per observation), with R². */
    slope: finite.optional(),
    intercept: finite.optional(),
    r2: z.number().min(0).max(1).optional(),
    per: z.string().max(40).optional(),
    /** Correlation with another metric (`with`), Pearson r. */
    correlation: z.number().min(-1).max(1).optional(),
    with: label.optional(),
  })
  .strict()
  .superRefine((m, ctx) => {
    if (m.k !== undefined && m.k > m.n) ctx.addIssue({ code: 'custom', path: ['k'], message: 'must not exceed n' });
    if (m.k !== undefined && m.rate !== undefined && m.n > 0 && Math.abs(m.rate - m.k / m.n) > 1e-9) {
      ctx.addIssue({ code: 'custom', path: ['rate'], message: 'must equal k / n (or leave it out)' });
    }
    if (m.min !== undefined && m.max !== undefined && m.min > m.max)
      ctx.addIssue({ code: 'custom', path: ['min'], message: 'must not exceed max' });
    if (m.r2 !== undefined && m.slope === undefined)
      ctx.addIssue({ code: 'custom', path: ['r2'], message: 'belongs to a trend: give slope too' });
    if (m.with !== undefined && m.correlation === undefined)
      ctx.addIssue({ code: 'custom', path: ['with'], message: 'belongs to a correlation: give correlation too' });
    if (m.k === undefined && m.rate === undefined && m.mean === undefined && m.slope === undefined && m.correlation === undefined) {
      ctx.addIssue({ code: 'custom', message: 'needs at least one statistic: k (rate), mean, slope or correlation' });
    }
  });

/** A validated metric. */
export type StatisticalMetric = z.output<typeof statisticalMetricSchema>;

/** A number as people read it: at most 3 decimals, no trailing zeros. */
export function formatStatistic(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  return String(Number(value.toFixed(3)));
}

/**
 * The verbal form of a metric, one line, most telling statistic first.
 *
 * @example
 * ```ts
 * verbalForm({ concept: 'mug', name: 'success rate', n: 8, k: 7 }); // 'mug success rate: 0.875 (7/8)'
 * verbalForm({ concept: 'mug', name: 'salience', n: 8, mean: 0.78, std: 0.12 }); // 'mug salience: mean=0.78, std=0.12 (n=8)'
 * ```
 */
export function verbalForm(metric: StatisticalMetric): string {
  const subject = metric.concept !== undefined ? `${metric.concept} ${metric.name}` : metric.name;
  const unit = metric.unit !== undefined && metric.unit.length > 0 ? ` ${metric.unit}` : '';
  const parts: string[] = [];
  if (metric.k !== undefined || metric.rate !== undefined) {
    const rate = metric.rate ?? (metric.n > 0 && metric.k !== undefined ? metric.k / metric.n : 0);
    parts.push(metric.k !== undefined ? `${formatStatistic(rate)} (${metric.k}/${metric.n})` : `${formatStatistic(rate)} (n=${metric.n})`);
  }
  if (metric.mean !== undefined) {
    const spread = metric.std !== undefined ? `, std=${formatStatistic(metric.std)}` : '';
    parts.push(`mean=${formatStatistic(metric.mean)}${unit}${spread} (n=${metric.n})`);
  }
  if (metric.slope !== undefined) {
    const r2 = metric.r2 !== undefined ? `, R²=${formatStatistic(metric.r2)}` : '';
    const direction = metric.slope > 0 ? 'rising' : metric.slope < 0 ? 'declining' : 'flat';
    parts.push(
      `${direction}, slope=${formatStatistic(metric.slope)}${metric.per !== undefined ? `/${metric.per}` : ''}${r2} (n=${metric.n})`,
    );
  }
  if (metric.correlation !== undefined) {
    parts.push(`r=${formatStatistic(metric.correlation)}${metric.with !== undefined ? ` with ${metric.with}` : ''} (n=${metric.n})`);
  }
  return `${subject}: ${parts.join('; ')}`;
}
