import { useEffect, useState } from "react";

/** Loads the template image (same-origin, so the session cookie authorises it and the canvas stays exportable). */
export function useTemplateImage(url: string | null): HTMLImageElement | null {
  const [image, setImage] = useState<HTMLImageElement | null>(null);
  useEffect(() => {
    if (!url) return;
    const img = new Image();
    img.onload = () => setImage(img);
    img.src = url;
    return () => {
      img.onload = null;
    };
  }, [url]);
  return image;
}
