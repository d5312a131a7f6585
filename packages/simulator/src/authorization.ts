import type { Configuration } from './configuration.js';
import { CallTimeoutError, OfflineError, type IdTagInfo, type Payload } from './ocpp.js';

/**
 * Local authorization: the list the CSMS sends (SendLocalList, versioned) and the cache of
 * answers to Authorize and StartTransaction (OCPP 1.6 §3.5). Maps are created on first use so
 * idle points of a large fleet hold none.
 */

export type UpdateStatus = 'Accepted' | 'Failed' | 'NotSupported' | 'VersionMismatch';

export interface LocalListEntry {
  idTag: string;
  idTagInfo?: IdTagInfo;
}

export interface Authorization {
  listVersion(): number;
  listSize(): number;
  fromList(idTag: string, now: number): IdTagInfo | undefined;
  fromCache(idTag: string, now: number): IdTagInfo | undefined;
  /** The group (parentIdTag) of an idTag, as the local list or the cache know it. */
  parentOf(idTag: string): string | undefined;
  remember(idTag: string, info: IdTagInfo): void;
  clearCache(): void;
  update(request: { listVersion: number; updateType: 'Full' | 'Differential'; entries: LocalListEntry[] }, maxLength: number): UpdateStatus;
}

const effective = (info: IdTagInfo | undefined, now: number): IdTagInfo | undefined => {
  if (!info) return undefined;
  if (info.status === 'Accepted' && info.expiryDate && Date.parse(info.expiryDate) < now) return { ...info, status: 'Expired' };
  return info;
};

export function createAuthorization(): Authorization {
  let version = 0;
  let list: Map<string, IdTagInfo> | undefined;
  let cache: Map<string, IdTagInfo> | undefined;

  return {
    listVersion: () => version,
    listSize: () => list?.size ?? 0,
    fromList: (idTag, now) => effective(list?.get(idTag), now),
    fromCache: (idTag, now) => effective(cache?.get(idTag), now),
    parentOf: (idTag) => (list?.get(idTag) ?? cache?.get(idTag))?.parentIdTag,
    remember(idTag, info) {
      (cache ??= new Map()).set(idTag, info);
    },
    clearCache() {
      cache = undefined;
    },
    update({ listVersion, updateType, entries }, maxLength) {
      if (updateType === 'Differential' && listVersion <= version) return 'VersionMismatch';
      if (entries.length > maxLength) return 'Failed';
      const next = updateType === 'Full' ? new Map<string, IdTagInfo>() : new Map(list);
      for (const { idTag, idTagInfo } of entries) {
        if (idTagInfo) next.set(idTag, idTagInfo);
        else if (updateType === 'Full')
          return 'Failed'; // a full list names every tag with its status
        else next.delete(idTag);
      }
      if (next.size > maxLength) return 'Failed';
      list = next.size > 0 ? next : undefined;
      version = listVersion;
      return 'Accepted';
    },
  };
}

export interface AuthorizeDeps {
  config: Configuration;
  auth: Authorization;
  now(): number;
  /** Connected and registered. */
  ready(): boolean;
  call(action: string, payload: Payload): Promise<Payload>;
}

/**
 * A presented idTag: Authorize when connected (unless LocalPreAuthorize finds it accepted
 * locally), the local list then the cache when offline (LocalAuthorizeOffline), and
 * AllowOfflineTxForUnknownId for tags known to neither.
 */
export async function authorizeIdTag(d: AuthorizeDeps, idTag: string): Promise<IdTagInfo> {
  const now = d.now();
  const local = d.config.bool('LocalAuthListEnabled') ? d.auth.fromList(idTag, now) : undefined;
  const known = local ?? (d.config.bool('AuthorizationCacheEnabled') ? d.auth.fromCache(idTag, now) : undefined);
  if (d.ready()) {
    if (d.config.bool('LocalPreAuthorize') && known?.status === 'Accepted') return known;
    try {
      const res = await d.call('Authorize', { idTag });
      const info = res.idTagInfo as IdTagInfo;
      if (d.config.bool('AuthorizationCacheEnabled')) d.auth.remember(idTag, info);
      return info;
    } catch (err) {
      if (!(err instanceof OfflineError) && !(err instanceof CallTimeoutError)) throw err;
    }
  }
  if (d.config.bool('LocalAuthorizeOffline') && known) return known;
  return { status: d.config.bool('AllowOfflineTxForUnknownId') ? 'Accepted' : 'Invalid' };
}
