export function BrandMark({ className = "h-8 w-8" }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden="true">
      <rect width="32" height="32" rx="7" fill="#0b5cad" />
      <path d="M6 18c3 0 3-8 6-8s3 12 6 12 3-8 8-8" stroke="white" strokeWidth="3" fill="none" strokeLinecap="round" />
    </svg>
  );
}
