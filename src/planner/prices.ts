/**
 * GPU rental prices for the "rent instead" comparison. Prices change weekly and differ by
 * provider and region, so the defaults are examples, dated, and every one is editable.
 */

/** How a GPU-hour is bought. */
export type PriceTier = 'on-demand' | 'reserved' | 'spot';

/** Every price tier. */
export const PRICE_TIERS: readonly PriceTier[] = ['on-demand', 'reserved', 'spot'];

/** Price of one GPU for one hour in each tier (US dollars in the defaults; any currency works). */
export type GpuPrices = Readonly<Record<PriceTier, number>>;

/** Prices by GPU preset id. A GPU without an entry has no price: it is not offered for rent. */
export type PriceTable = Readonly<Record<string, GpuPrices>>;

/** When the example prices were read. */
export const EXAMPLE_PRICES_DATE = '2026-05';

/**
 * Where the example prices come from: on-demand is the middle of the "specialty provider" range
 * in Mercatus, "Cloud GPU pricing" (May 2026, mercatus-ai.com/blog/cloud-gpu-pricing: A100 80GB
 * $1.10–1.50, H100 SXM5 $2.50–3.50, H200 SXM5 $3.50–4.50 per GPU-hour); reserved takes the low end of
 * the 30–50 % reservation discount on the same page; spot takes the low end of the 50–70 % discount
 * quoted by packet.ai, "GPU pricing models compared" (2026).
 */
export const EXAMPLE_PRICES_SOURCE =
  'Mercatus "Cloud GPU pricing" (May 2026): middle of the specialty-provider on-demand range; reserved −30 % (low end of its 30–50 %); spot −50 % (packet.ai "GPU pricing models compared", 2026: 50–70 %)';

const example = (onDemand: number): GpuPrices => ({
  'on-demand': onDemand,
  reserved: Math.round(onDemand * 0.7 * 100) / 100,
  spot: Math.round(onDemand * 0.5 * 100) / 100,
});

/** Example prices per GPU-hour in US dollars, dated EXAMPLE_PRICES_DATE: replace them with your provider's. */
export const EXAMPLE_PRICES: PriceTable = {
  'a100-80gb': example(1.3),
  'h100-80gb': example(3.0),
  h200: example(4.0),
};

/** Cost of `gpus` GPUs for `seconds` at `pricePerGpuHour`. */
export function costOf(seconds: number, gpus: number, pricePerGpuHour: number): number {
  return (seconds / 3600) * gpus * pricePerGpuHour;
}

/**
 * A cost for people: two decimals from 1 up, else three significant digits, so that two small costs per step
 * (0.0000424 and 0.0000481 of a currency) stay apart rather than both printing as 0.00005. "invalid" for what no cost is.
 */
export function formatCost(value: number): string {
  if (!Number.isFinite(value) || value < 0) return 'invalid';
  if (value === 0) return '0';
  return value >= 1 ? value.toFixed(2) : value.toPrecision(3);
}
