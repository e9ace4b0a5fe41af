// Date helpers shared by the toasts and pages: the display forms (section 9's reader of
// 'DD Mon YYYY' is in parse-date.ts, apart, so that the sign-in page's scripts do not carry it).

export interface DateTimeFormatOptions {
  /** Tests pin the zone; the browser's own zone otherwise. */
  timeZone?: string;
}

/** An ISO timestamp as a medium date and short time, e.g. '21 Nov 2025, 8:03 am'. */
export function formatDateTime(iso: string, { timeZone }: DateTimeFormatOptions = {}): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat('en-AU', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(date);
}

export const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** YYYY-MM-DD as 'DD Mon YYYY' (the display form that section 9's date helper reads back). */
export function formatIsoDate(iso: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  const month = match ? MONTHS[Number(match[2]) - 1] : undefined;
  if (!match || !month) return iso;
  return `${match[3]} ${month} ${match[1]}`;
}
