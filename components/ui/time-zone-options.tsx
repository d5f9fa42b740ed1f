import { TIME_ZONES, zoneLabel } from '@/lib/time-zones';

/**
 * The `<option>`s of every time-zone picker: the zones the server accepts, optionally after an empty choice
 * ("The screen's time zone"), with `current` kept first when it is a stored name no longer on the list, and
 * `marked` zones given a suffix (" (yours)").
 */
export function TimeZoneOptions({
  emptyLabel,
  current,
  marked,
}: {
  emptyLabel?: string;
  current?: string;
  marked?: Readonly<Record<string, string>>;
}) {
  const zones = current && !TIME_ZONES.includes(current) ? [current, ...TIME_ZONES] : TIME_ZONES;

  return (
    <>
      {emptyLabel !== undefined ? <option value="">{emptyLabel}</option> : null}
      {zones.map((zone) => (
        <option key={zone} value={zone}>
          {zoneLabel(zone)}
          {marked?.[zone] ?? ''}
        </option>
      ))}
    </>
  );
}
