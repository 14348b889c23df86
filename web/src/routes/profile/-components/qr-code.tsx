import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { Skeleton } from '../../../components/ui/skeleton';

/** The key URI as a QR code: a data: URL image (the CSP allows `img-src data:`), drawn here, never fetched. */
export function QrCode({ value, label }: { value: string; label: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let isCurrent = true;
    QRCode.toDataURL(value, { errorCorrectionLevel: 'M', margin: 1, width: 384 })
      .then((url) => {
        if (isCurrent) setSrc(url);
      })
      .catch(() => {
        if (isCurrent) setSrc(null);
      });
    return () => {
      isCurrent = false;
    };
  }, [value]);
  return (
    <div className="flex size-48 shrink-0 items-center justify-center rounded-xl border border-slate-200 bg-white p-2 shadow-xs">
      {src ? (
        <img src={src} alt={label} className="size-full [image-rendering:pixelated]" />
      ) : (
        <Skeleton className="size-full" />
      )}
    </div>
  );
}
