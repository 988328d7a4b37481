import { FileCheck2, FileSignature, LayoutTemplate, ScanText, ShieldCheck, Sparkles, Upload } from "lucide-react";
import { BrandMark } from "../../app/brand-mark";
import { Button } from "../../components/ui/button";

const features = [
  {
    icon: Sparkles,
    title: "AI-powered report generation",
    text: "Drafts graded from published vascular criteria, ready for the physician's review.",
  },
  {
    icon: ScanText,
    title: "Smart OCR of handwritten worksheet data",
    text: "Patient details and measurements read from scans and phone photos, shown for checking.",
  },
  {
    icon: ShieldCheck,
    title: "HIPAA compliance",
    text: "Encrypted files, per-clinic isolation, electronic signatures and a tamper-evident audit trail.",
  },
  {
    icon: LayoutTemplate,
    title: "Custom templates with physician signatures",
    text: "Your letterhead, layout and signature block on every PDF and DOCX export.",
  },
];

const steps = [
  { icon: Upload, title: "Upload worksheet", text: "Scan, photograph or drop the sonographer's worksheet." },
  { icon: Sparkles, title: "AI processing", text: "Values are read, checked by you, and graded by criteria." },
  { icon: FileCheck2, title: "Generate report", text: "Edit, sign electronically, and export or print." },
];

const goToLogin = () => {
  window.location.href = "/api/login";
};

export function LandingPage() {
  return (
    <div className="min-h-screen bg-white">
      <header className="border-b border-slate-200">
        <div className="mx-auto flex max-w-6xl items-center justify-between px-4 py-4">
          <div className="flex items-center gap-2 text-lg font-semibold">
            <BrandMark />
            Sonoscribe
          </div>
          <Button onClick={goToLogin}>Sign In</Button>
        </div>
      </header>
      <main>
        <section className="bg-gradient-to-b from-brand-50 to-white">
          <div className="mx-auto max-w-6xl px-4 py-16 text-center sm:py-24">
            <p className="mb-3 inline-flex items-center gap-2 rounded-full bg-white px-3 py-1 text-sm font-medium text-brand-800 shadow-sm">
              <FileSignature className="h-4 w-4" aria-hidden /> Vascular ultrasound reporting
            </p>
            <h1 className="mx-auto max-w-3xl text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">
              From the sonographer's worksheet to a signed report in minutes
            </h1>
            <p className="mx-auto mt-5 max-w-2xl text-lg text-slate-700">
              Upload a scanned or photographed worksheet. Sonoscribe reads it, drafts the report from published
              criteria, and lets your physician review, sign and export it.
            </p>
            <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
              <Button size="lg" onClick={goToLogin}>
                Start Creating Reports
              </Button>
              <Button size="lg" variant="outline" asChild>
                <a href="/register-clinic">Register Your Clinic</a>
              </Button>
            </div>
          </div>
        </section>

        <section aria-labelledby="features-title" className="mx-auto max-w-6xl px-4 py-16">
          <h2 id="features-title" className="text-center text-2xl font-semibold text-slate-900">
            Built for vascular clinics
          </h2>
          <div className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {features.map((f) => (
              <div key={f.title} className="rounded-lg border border-slate-200 p-6 shadow-sm">
                <f.icon className="h-8 w-8 text-brand-600" aria-hidden />
                <h3 className="mt-4 font-semibold text-slate-900">{f.title}</h3>
                <p className="mt-2 text-sm text-slate-700">{f.text}</p>
              </div>
            ))}
          </div>
        </section>

        <section aria-labelledby="steps-title" className="bg-slate-50">
          <div className="mx-auto max-w-6xl px-4 py-16">
            <h2 id="steps-title" className="text-center text-2xl font-semibold text-slate-900">
              How it works
            </h2>
            <ol className="mt-10 grid gap-6 md:grid-cols-3">
              {steps.map((s, i) => (
                <li key={s.title} className="flex flex-col items-center text-center">
                  <span className="flex h-14 w-14 items-center justify-center rounded-full bg-brand-600 text-white">
                    <s.icon className="h-6 w-6" aria-hidden />
                  </span>
                  <span className="mt-4 text-sm font-medium text-brand-800">Step {i + 1}</span>
                  <h3 className="mt-1 font-semibold text-slate-900">{s.title}</h3>
                  <p className="mt-2 max-w-xs text-sm text-slate-700">{s.text}</p>
                </li>
              ))}
            </ol>
          </div>
        </section>

        <section className="mx-auto max-w-6xl px-4 py-16">
          <div className="rounded-2xl bg-brand-700 px-6 py-12 text-center text-white">
            <h2 className="text-2xl font-semibold">Ready to spend less time typing reports?</h2>
            <p className="mx-auto mt-3 max-w-xl text-brand-50">
              Register your clinic, invite your sonographers, and generate your first report today.
            </p>
            <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
              <Button size="lg" variant="secondary" asChild>
                <a href="/register-clinic">Register Your Clinic</a>
              </Button>
              <Button
                size="lg"
                variant="outline"
                className="border-white bg-transparent text-white hover:bg-white/10"
                onClick={goToLogin}
              >
                Sign In
              </Button>
            </div>
          </div>
        </section>
      </main>
      <footer className="border-t border-slate-200">
        <div className="mx-auto flex max-w-6xl flex-col items-center justify-between gap-2 px-4 py-6 text-sm text-slate-600 sm:flex-row">
          <span>© {new Date().getFullYear()} Sonoscribe</span>
          <span>Reports are drafts until reviewed and signed by a physician.</span>
        </div>
      </footer>
    </div>
  );
}
