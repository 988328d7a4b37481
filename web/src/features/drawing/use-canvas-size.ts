import { type RefObject, useEffect, useState } from "react";

/** The spec's sizes: in fullscreen the window less 280 x 120 px; otherwise the container width (fallback 800) by 600. */
export function useCanvasSize(container: RefObject<HTMLElement | null>, fullscreen: boolean) {
  const [size, setSize] = useState({ width: 800, height: 600 });
  useEffect(() => {
    const measure = () => {
      if (fullscreen) {
        setSize({ width: Math.max(320, window.innerWidth - 280), height: Math.max(320, window.innerHeight - 120) });
      } else {
        const width = Math.floor(container.current?.clientWidth || 800);
        setSize({ width, height: 600 });
      }
    };
    measure();
    const observer = new ResizeObserver(measure);
    if (container.current) observer.observe(container.current);
    window.addEventListener("resize", measure);
    return () => {
      observer.disconnect();
      window.removeEventListener("resize", measure);
    };
  }, [container, fullscreen]);
  return size;
}
