// The spec's report form turns into an edit form when navigation state carries a bug id.
declare module '@tanstack/history' {
  interface HistoryState {
    bugId?: string;
  }
}

export {};
