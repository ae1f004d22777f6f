/** Outline icons (24 px grid) of the admin screens; decorative, the buttons and texts beside them carry the meaning. */
import type { ReactNode } from 'react';

interface IconProps {
  className?: string;
}

function Icon({ children, className = 'size-5' }: IconProps & { children: ReactNode }) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className}
      aria-hidden="true"
    >
      {children}
    </svg>
  );
}

export const PlusIcon = ({ className }: IconProps) => (
  <Icon className={className}>
    <path d="M12 5v14M5 12h14" />
  </Icon>
);

export const CloseIcon = ({ className }: IconProps) => (
  <Icon className={className}>
    <path d="M6 6l12 12M18 6L6 18" />
  </Icon>
);

export const PencilIcon = ({ className }: IconProps) => (
  <Icon className={className}>
    <path d="M16.9 3.6a2 2 0 0 1 2.8 0l.7.7a2 2 0 0 1 0 2.8L8.6 18.9 4 20l1.1-4.6L16.9 3.6Z" />
    <path d="m15 5.5 3.5 3.5" />
  </Icon>
);

export const KeyIcon = ({ className }: IconProps) => (
  <Icon className={className}>
    <circle cx="7.5" cy="15.5" r="3.5" />
    <path d="m10 13 9-9M16 7l2.5 2.5M18.5 4.5 21 7" />
  </Icon>
);

export const TrashIcon = ({ className }: IconProps) => (
  <Icon className={className}>
    <path d="M4 7h16M10 11v6M14 11v6M6 7l1 12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-12M9 7V4h6v3" />
  </Icon>
);

export const UsersIcon = ({ className }: IconProps) => (
  <Icon className={className}>
    <circle cx="9" cy="8" r="3.5" />
    <path d="M2.5 20a6.5 6.5 0 0 1 13 0M16 4.5a3.5 3.5 0 0 1 0 7M18 14.5a6.5 6.5 0 0 1 3.5 5.5" />
  </Icon>
);

export const InfoIcon = ({ className }: IconProps) => (
  <Icon className={className}>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 11v5M12 8h.01" />
  </Icon>
);

export const ClockIcon = ({ className }: IconProps) => (
  <Icon className={className}>
    <path d="M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0ZM12 7v5l3 2" />
  </Icon>
);

export const WarningIcon = ({ className }: IconProps) => (
  <Icon className={className}>
    <path d="M12 3 2 20h20L12 3Z" />
    <path d="M12 10v4M12 17h.01" />
  </Icon>
);

export const UploadIcon = ({ className = 'size-12' }: IconProps) => (
  <Icon className={className}>
    <path d="M12 16V4m0 0-4 4m4-4 4 4" />
    <path d="M4 16v2a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-2" />
  </Icon>
);

export const MailIcon = ({ className }: IconProps) => (
  <Icon className={className}>
    <rect x="3" y="5" width="18" height="14" rx="2" />
    <path d="M3 7l9 6 9-6" />
  </Icon>
);

export const MailCrossedIcon = ({ className }: IconProps) => (
  <Icon className={className}>
    <rect x="3" y="5" width="18" height="14" rx="2" />
    <path d="M3 7l9 6 9-6M4 4l16 16" />
  </Icon>
);

/** A shield struck through: turning two-factor sign-in off. */
export const ShieldOffIcon = ({ className }: IconProps) => (
  <Icon className={className}>
    <path d="M12 3l7 3v5c0 4.5-3 8.3-7 10-4-1.7-7-5.5-7-10V6l7-3z" />
    <path d="M4 4l16 16" />
  </Icon>
);

/** Angle brackets struck through: revoking a user's API tokens. */
export const ApiTokensOffIcon = ({ className }: IconProps) => (
  <Icon className={className}>
    <path d="M8 7l-5 5 5 5M16 7l5 5-5 5" />
    <path d="M4 4l16 16" />
  </Icon>
);

/** A key ring crossed out: a user's passkeys removed. */
export const PasskeysOffIcon = ({ className }: IconProps) => (
  <Icon className={className}>
    <circle cx="8" cy="12" r="3.5" />
    <path d="M11.5 12H20v3M17 12v2.5" />
    <path d="M4 4l16 16" />
  </Icon>
);

/** A page with a folded corner: a document to download. */
export const DocumentIcon = ({ className }: IconProps) => (
  <Icon className={className}>
    <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8l-5-5z" />
    <path d="M14 3v5h5M9 13h6M9 17h6" />
  </Icon>
);
