const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2}))?$/i;

/**
 * An ISO 8601 timestamp: a date (`2026-01-31`, midnight UTC) or a date-time with seconds and
 * fraction optional and a zone required (`Z` or `±hh:mm`) — a zoneless time would mean
 * whatever the server's zone is. Impossible dates (`2026-02-30`) are refused. null if invalid.
 */
export function parseIsoTimestamp(text: string): Date | null {
  const m = ISO_8601.exec(text);
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone = 'Z'] = m;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  let offsetMinutes = 0;
  if (zone.toUpperCase() !== 'Z') {
    const [oh, om] = zone.slice(1).split(':').map(Number) as [number, number];
    if (oh > 23 || om > 59) return null;
    offsetMinutes = (zone[0] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const ms = Number(frac.padEnd(3, '0').slice(0, 3));
  const local = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  // Date.UTC rolls 2026-02-30 over into March: a changed day means the date does not exist.
  if (new Date(local).getUTCDate() !== day) return null;
  const date = new Date(local - offsetMinutes * 60_000);
  return Number.isNaN(date.getTime()) ? null : date;
}
