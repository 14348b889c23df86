import { Link } from '@tanstack/react-router';
import { ShieldAlert } from 'lucide-react';
import { buttonClass } from './ui/button';
import { Card } from './ui/card';

export function InlineNotice({ message, backTo, backLabel }: { message: string; backTo: string; backLabel: string }) {
  return (
    <Card className="mx-auto max-w-xl p-10 text-center">
      <span className="inline-flex rounded-full bg-rose-50 p-3 text-rose-600">
        <ShieldAlert className="size-6" aria-hidden="true" />
      </span>
      <p role="alert" className="mt-4 text-base font-semibold text-slate-900">
        {message}
      </p>
      <Link to={backTo} className={buttonClass('secondary', 'md', 'mt-6')}>
        {backLabel}
      </Link>
    </Card>
  );
}
