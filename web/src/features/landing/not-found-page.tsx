import { Link } from "wouter";

export function NotFoundPage() {
  return (
    <main className="flex min-h-[60vh] flex-col items-center justify-center gap-3 p-8 text-center">
      <h1 className="text-3xl font-bold text-slate-900">404 Page Not Found</h1>
      <p className="text-slate-700">The page you asked for does not exist.</p>
      <Link href="/" className="text-brand-700 underline">
        Go to the home page
      </Link>
    </main>
  );
}
