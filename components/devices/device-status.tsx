import { useLabel } from '@/lib/i18n/labels';
import type { Device } from '@/lib/api/devices';
import { cn } from '@/lib/cn';

/** A coloured dot and "Online" / "Offline". */
export function DeviceStatus({ device, className }: { device: Pick<Device, 'deviceStatus'>; className?: string }) {
  const label = useLabel();
  const online = device.deviceStatus === 'ONLINE';

  return (
    <span
      className={cn('inline-flex items-center gap-1.5 text-sm', online ? 'text-emerald-700' : 'text-zinc-500', className)}
      data-status={device.deviceStatus}
    >
      <span aria-hidden className={cn('size-2 rounded-full', online ? 'bg-emerald-500' : 'bg-zinc-300')} />
      {label('deviceStatus', online ? 'ONLINE' : 'OFFLINE')}
    </span>
  );
}
