/** Outline icons (24 px grid) of the token screen; decorative, the texts beside them carry the meaning. */
import type { ReactNode } from 'react';

function Icon({ children, className = 'size-5' }: { children: ReactNode; className?: string }) {
  return (
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" className={className} aria-hidden="true">
      {children}
    </svg>
  );
}

export const KeyIcon = ({ className }: { className?: string }) => (
  <Icon className={className}>
    <circle cx="7.5" cy="15.5" r="3.5" />
    <path d="m10 13 9-9M16 7l2.5 2.5M18.5 4.5 21 7" />
  </Icon>
);

export const InfoIcon = ({ className }: { className?: string }) => (
  <Icon className={className}>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 11v5M12 8h.01" />
  </Icon>
);

export const WarningIcon = ({ className }: { className?: string }) => (
  <Icon className={className}>
    <path d="M12 3 2 20h20L12 3Z" />
    <path d="M12 10v4M12 17h.01" />
  </Icon>
);
