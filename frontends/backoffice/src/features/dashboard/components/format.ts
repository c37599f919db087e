const percent = new Intl.NumberFormat('es-ES', { style: 'percent', maximumFractionDigits: 1 });
/** 0.0714 → "7,1 %" */
export const formatPercent = (ratio: number): string => percent.format(ratio);

/** "2024-06-03" → "03/06" */
export const shortDay = (day: string): string => `${day.slice(8, 10)}/${day.slice(5, 7)}`;

/** "YYYY-MM-DD" of a local Date. */
export function isoDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
