import type { ViewConfigView } from '@crm/contracts';
import { serviceUnavailable } from '@crm/server-kit';
import { viewConfigSchema } from '@crm/view-config';
import type { Caller, ViewConfigSource } from '../domain/record';
import { getFromService, jsonOf } from '@crm/server-kit';

/** `GET /config/view?view=<name>` (config service): the current configuration, checked again here. */
export class ConfigClient implements ViewConfigSource {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
  ) {}

  async current(view: string, caller: Caller): Promise<ViewConfigView> {
    const response = await getFromService(
      this.baseUrl,
      `/config/view?view=${encodeURIComponent(view)}`,
      caller,
      this.timeoutMs,
    );
    if (!response.ok) {
      // 404: the view has no configuration, so no record can be checked; the service is not usable.
      await response.body?.cancel();
      throw serviceUnavailable('La configuración del formulario no está disponible');
    }
    const parsed = viewConfigSchema.safeParse(await jsonOf(response));
    if (!parsed.success || parsed.data.view !== view)
      throw serviceUnavailable('La configuración del formulario no es válida');
    return parsed.data;
  }
}
