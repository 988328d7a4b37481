import { Camera, SwitchCamera } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent } from "../../components/ui/dialog";
import { toast } from "../../components/ui/use-toast";

export type Facing = "environment" | "user";

/** The spec's capture: portrait, ideally 1080 x 1920 (9:16). */
const portrait = { width: { ideal: 1080 }, height: { ideal: 1920 }, aspectRatio: { ideal: 9 / 16 } };
export const JPEG_QUALITY = 0.8;

/** The exact back or front camera first; a device without one gets the closest camera instead. */
export async function openCamera(facing: Facing): Promise<MediaStream> {
  try {
    return await navigator.mediaDevices.getUserMedia({ video: { ...portrait, facingMode: { exact: facing } } });
  } catch {
    return navigator.mediaDevices.getUserMedia({ video: { ...portrait, facingMode: { ideal: facing } } });
  }
}

export const captureName = (now = Date.now()) => `worksheet-${now}.jpg`;

export function CameraCapture({
  open,
  onOpenChange,
  onCapture,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCapture: (file: File) => void;
}) {
  const video = useRef<HTMLVideoElement>(null);
  const [facing, setFacing] = useState<Facing>("environment");
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!open) return;
    let cancelled = false;
    let opened: MediaStream | null = null;
    setFailed(false);
    setStream(null);
    const start = async () => {
      try {
        if (!navigator.mediaDevices?.getUserMedia) throw new Error("No camera API");
        opened = await openCamera(facing);
        if (cancelled) {
          for (const track of opened.getTracks()) track.stop();
          return;
        }
        setStream(opened);
      } catch {
        if (cancelled) return;
        setFailed(true);
        toast({
          title: "Camera Access Failed",
          description: "Unable to access camera. Please check permissions or try switching cameras.",
          variant: "destructive",
        });
      }
    };
    void start();
    return () => {
      cancelled = true;
      // Closing or switching must release the camera, or the phone keeps its light on.
      for (const track of opened?.getTracks() ?? []) track.stop();
    };
  }, [open, facing]);

  useEffect(() => {
    if (video.current) video.current.srcObject = stream;
  }, [stream]);

  const capture = () => {
    const element = video.current;
    if (!element?.videoWidth) return;
    const canvas = document.createElement("canvas");
    canvas.width = element.videoWidth;
    canvas.height = element.videoHeight;
    canvas.getContext("2d")?.drawImage(element, 0, 0, canvas.width, canvas.height);
    canvas.toBlob(
      (blob) => {
        if (!blob) return;
        onOpenChange(false);
        onCapture(new File([blob], captureName(), { type: "image/jpeg" }));
      },
      "image/jpeg",
      JPEG_QUALITY,
    );
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title="Capture worksheet"
        description="Hold the whole worksheet in the frame, flat and well lit."
        className="max-w-md"
      >
        <div className="grid gap-4">
          <div className="relative mx-auto aspect-[9/16] max-h-[60vh] w-full overflow-hidden rounded-md bg-slate-900">
            <video
              ref={video}
              autoPlay
              playsInline
              muted
              aria-label={`Camera preview (${facing === "environment" ? "back" : "front"} camera)`}
              className="h-full w-full object-cover"
            />
            {failed ? (
              <p className="absolute inset-0 flex items-center justify-center p-6 text-center text-sm text-white">
                The camera could not be opened. Check the browser's permission or switch cameras.
              </p>
            ) : null}
          </div>
          <div className="flex flex-wrap justify-between gap-2">
            <Button variant="outline" onClick={() => setFacing((f) => (f === "environment" ? "user" : "environment"))}>
              <SwitchCamera className="h-4 w-4" aria-hidden />
              Switch camera
              <span className="sr-only">{facing === "environment" ? " to the front one" : " to the back one"}</span>
            </Button>
            <Button onClick={capture} disabled={!stream}>
              <Camera className="h-4 w-4" aria-hidden />
              Capture
            </Button>
          </div>
        </div>
      </DialogContent>
    </Dialog>
  );
}
