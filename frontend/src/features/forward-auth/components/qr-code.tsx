import QRCode from 'qrcode';
import { useEffect, useState } from 'react';

/** QR code as an image (data URL), so it can be saved or scanned from the screen. */
export function QrCode({ value, size = 200, label }: { value: string; size?: number; label: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    QRCode.toDataURL(value, { width: size, margin: 1, errorCorrectionLevel: 'M' })
      .then((url) => !cancelled && setSrc(url))
      .catch(() => !cancelled && setSrc(null));
    return () => {
      cancelled = true;
    };
  }, [value, size]);
  return (
    <div className="qr" style={{ width: size + 22, height: size + 22 }}>
      {src ? <img src={src} width={size} height={size} alt={label} /> : null}
    </div>
  );
}
