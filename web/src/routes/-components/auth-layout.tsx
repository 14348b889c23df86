import type { ReactNode } from 'react';
import { Logo, LogoMark, PRODUCT_NAME } from '../../components/logo';
import { ThemeToggle } from '../../components/theme-toggle';

/** Login and signup: the form on the left (~60%), the product's welcome on the right (~40%, md and up). */
export function AuthLayout({ title, subtitle, children }: { title: string; subtitle: string; children: ReactNode }) {
  return (
    <div className="flex min-h-screen bg-slate-50">
      <div className="flex w-full flex-col px-4 py-6 sm:px-8 md:w-3/5">
        <div className="flex items-center justify-between gap-3">
          <a href="/landing" aria-label={`${PRODUCT_NAME} home`}>
            <Logo />
          </a>
          <ThemeToggle />
        </div>
        <div className="flex flex-1 items-center justify-center py-10">
          <main className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-xl shadow-slate-900/5 sm:p-8">
            <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
            <p className="mt-1.5 text-sm text-slate-500">{subtitle}</p>
            <div className="mt-7">{children}</div>
          </main>
        </div>
      </div>
      {/* scheme-light: the picture under its dark veil looks the same in both themes. */}
      <aside
        className="relative hidden overflow-hidden scheme-light md:flex md:w-2/5"
        aria-label={`About ${PRODUCT_NAME}`}
      >
        <div aria-hidden="true" className="absolute inset-0 bg-[url('/auth-background.svg')] bg-cover bg-center" />
        <div
          aria-hidden="true"
          className="absolute inset-0 bg-gradient-to-b from-slate-950/70 via-brand-950/75 to-slate-950/95"
        />
        <div className="relative flex w-full flex-col items-center justify-center px-10 text-center text-white">
          <LogoMark className="size-20 rounded-2xl" />
          <h2 className="mt-8 text-3xl font-bold tracking-tight">Welcome to {PRODUCT_NAME}</h2>
          <p className="mt-4 max-w-sm text-base leading-7 text-slate-200">
            The modern bug tracking solution for development teams. Track, prioritize, and fix bugs efficiently.
          </p>
          <p className="mt-10 inline-flex items-center gap-2 rounded-full bg-white/10 px-4 py-2 text-sm font-medium text-white ring-1 ring-white/20">
            Join thousands of developers worldwide
          </p>
        </div>
      </aside>
    </div>
  );
}
