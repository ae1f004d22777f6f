import { m } from '~/paraglide/messages.js';
import type { Role } from '~/shared/constants';

/** 'User Management', or the role view's own title ('Admin Viewer Management'). */
export function managementTitle(roleFilter: Role | null): string {
  switch (roleFilter) {
    case 'admin':
      return m.users_management_title_admin();
    case 'admin-viewer':
      return m.users_management_title_admin_viewer();
    case 'viewer':
      return m.users_management_title_viewer();
    default:
      return m.users_management_title();
  }
}
