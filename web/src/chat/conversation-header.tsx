/** The bar over a conversation: back to the list (phones), the chat's icon, name and subtitle, and an action. */
import { ArrowLeft } from 'lucide-react';
import { buttonClass } from '../components/ui/button';

export function ConversationHeader({
  title,
  subtitle,
  icon,
  action,
  onBack,
}: {
  title: string;
  subtitle?: string;
  icon?: React.ReactNode;
  action?: React.ReactNode;
  onBack: () => void;
}) {
  return (
    <header className="flex items-center gap-3 border-b border-slate-200 bg-white px-3 py-2.5 sm:px-4">
      <button
        type="button"
        onClick={onBack}
        className={buttonClass('ghost', 'sm', 'px-2 md:hidden')}
        aria-label="Back to chats"
      >
        <ArrowLeft className="size-5" />
      </button>
      {icon}
      <div className="min-w-0 flex-1">
        <h2 className="truncate text-base font-semibold text-slate-900" data-testid="chat-title">
          {title}
        </h2>
        {subtitle ? <p className="truncate text-xs text-slate-500">{subtitle}</p> : null}
      </div>
      {action}
    </header>
  );
}
