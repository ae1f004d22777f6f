import type { Role } from '~/shared/constants';
import { roleLabel } from '~/shared/format';

const capitalizeWords = (text: string) => text.replace(/\b\w/g, (letter) => letter.toUpperCase());

/** 'User Management', or '{Role} Management' in a role view ('Admin Viewer Management'). */
export function managementTitle(roleFilter: Role | null): string {
  return roleFilter ? `${capitalizeWords(roleLabel(roleFilter))} Management` : 'User Management';
}
