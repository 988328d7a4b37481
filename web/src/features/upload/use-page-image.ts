import { useEffect, useState } from "react";
import { worksheetImageUrl } from "../../../../domain/contracts/worksheets";

export type PageImage = { url: string; width: number; height: number };

/**
 * The worksheet's first page, fetched once into a blob URL. The server sends it with no-store, so every <img>
 * or CSS background pointing at the API would download it again; the thumbnail and all the measurement crops
 * share this one copy instead, and it is released when the worksheet changes.
 */
export function usePageImage(worksheetId: number | null): PageImage | null {
  const [image, setImage] = useState<PageImage | null>(null);

  useEffect(() => {
    setImage(null);
    if (worksheetId === null) return;
    let url: string | null = null;
    let cancelled = false;
    (async () => {
      const res = await fetch(worksheetImageUrl(worksheetId), { credentials: "include" });
      if (!res.ok || cancelled) return;
      url = URL.createObjectURL(await res.blob());
      const element = new Image();
      element.src = url;
      await element.decode();
      if (!cancelled) setImage({ url, width: element.naturalWidth, height: element.naturalHeight });
    })().catch(() => {
      // No thumbnail or crops then; the values themselves are still shown and editable.
    });
    return () => {
      cancelled = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [worksheetId]);

  return image;
}
