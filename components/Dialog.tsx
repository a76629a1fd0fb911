"use client";

import { useEffect, useRef, type ReactNode } from "react";

/**
 * A modal `<dialog>` shown while `open`: Escape and a click on the backdrop close it (`onClose`),
 * its children render only while it is open, and `onShown` runs once it is on screen (to focus an
 * input). The palette and the shortcuts overlay are two of these.
 */
export function Dialog({
  open,
  onClose,
  onShown,
  label,
  labelledBy,
  testId,
  width,
  children,
}: {
  open: boolean;
  onClose: () => void;
  onShown?: () => void;
  label?: string;
  labelledBy?: string;
  testId?: string;
  /** A Tailwind width, e.g. `w-[min(40rem,calc(100vw-2rem))]`. */
  width: string;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) {
      d.showModal();
      onShown?.();
    } else if (!open && d.open) d.close();
  }, [open, onShown]);
  return (
    <dialog
      ref={dialog}
      aria-label={label}
      aria-labelledby={labelledBy}
      data-testid={testId}
      onClose={onClose}
      onClick={(e) => {
        if (e.target === dialog.current) onClose();
      }}
      className={`m-auto mt-[12vh] ${width} rounded-lg border border-slate-200 bg-white p-0 text-slate-900 shadow-2xl backdrop:bg-slate-950/50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100`}
    >
      {open && children}
    </dialog>
  );
}
