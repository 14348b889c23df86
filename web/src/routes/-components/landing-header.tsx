/** The landing page's sticky header: the section links, login and sign-up, and the menu on small screens. */
import { Link } from '@tanstack/react-router';
import { Menu, X } from 'lucide-react';
import { useState } from 'react';
import { Logo, PRODUCT_NAME } from '../../components/logo';
import { ThemeToggle } from '../../components/theme-toggle';
import { buttonClass } from '../../components/ui/button';

const sections = [
  { id: 'features', label: 'Features' },
  { id: 'pricing', label: 'Pricing' },
  { id: 'about', label: 'About' },
  { id: 'contact', label: 'Contact' },
  { id: 'privacy', label: 'Privacy' },
  { id: 'terms', label: 'Terms' },
] as const;

export function LandingHeader() {
  const [isMenuOpen, setMenuOpen] = useState(false);
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/70 bg-white/85 backdrop-blur">
      <nav className="mx-auto flex h-16 max-w-7xl items-center justify-between px-4 sm:px-6 lg:px-8" aria-label="Main">
        <a href="#top" aria-label={`${PRODUCT_NAME} home`}>
          <Logo />
        </a>
        <ul className="hidden items-center gap-1 lg:flex">
          {sections.map((section) => (
            <li key={section.id}>
              <a
                href={`#${section.id}`}
                className="rounded-lg px-3 py-2 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900"
              >
                {section.label}
              </a>
            </li>
          ))}
        </ul>
        <div className="flex items-center gap-2">
          <ThemeToggle />
          <div className="hidden items-center gap-2 lg:flex">
            <Link to="/login" className={buttonClass('ghost')}>
              Login
            </Link>
            <Link to="/signup" className={buttonClass('primary')}>
              Get Started
            </Link>
          </div>
          <button
            type="button"
            className="rounded-lg p-2 text-slate-700 hover:bg-slate-100 lg:hidden"
            aria-label={isMenuOpen ? 'Close menu' : 'Open menu'}
            aria-expanded={isMenuOpen}
            aria-controls="mobile-menu"
            onClick={() => setMenuOpen((open) => !open)}
          >
            {isMenuOpen ? <X className="size-6" /> : <Menu className="size-6" />}
          </button>
        </div>
      </nav>
      {isMenuOpen ? (
        <div id="mobile-menu" className="border-t border-slate-200 bg-white px-4 pt-2 pb-4 lg:hidden">
          <ul className="grid gap-1">
            {sections.map((section) => (
              <li key={section.id}>
                <a
                  href={`#${section.id}`}
                  onClick={() => setMenuOpen(false)}
                  className="block rounded-lg px-3 py-2.5 text-base font-medium text-slate-700 hover:bg-slate-100"
                >
                  {section.label}
                </a>
              </li>
            ))}
          </ul>
          <div className="mt-3 grid grid-cols-2 gap-2">
            <Link to="/login" className={buttonClass('secondary')}>
              Login
            </Link>
            <Link to="/signup" className={buttonClass('primary')}>
              Get Started
            </Link>
          </div>
        </div>
      ) : null}
    </header>
  );
}
