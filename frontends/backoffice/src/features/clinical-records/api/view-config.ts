import { mutate } from 'swr';
import type { ViewConfigView, ViewField } from '@crm/contracts';
import { api } from '@crm/web-kit';
import { viewConfigKey } from './records';

/** GET /config/view?view=&version= — an older version of a view (records name the one they used). */
export const getViewVersion = (view: string, version: number) =>
  api.get<ViewConfigView>('/config/view', { query: { view, version } });

/**
 * PUT /config/view?view= (ADMIN): the fields become the view's next version. The answer replaces the
 * cached configuration, so a record form opened next on this page uses it.
 */
export async function saveViewConfig(view: string, fields: ViewField[]): Promise<ViewConfigView> {
  const saved = await api.put<ViewConfigView>('/config/view', { fields }, { query: { view } });
  await mutate(viewConfigKey(view), saved, { revalidate: false });
  return saved;
}
