/** The catalog choices of a restriction: "all catalogs" (0) and the item's top-level catalogs. */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { catalogGroups } from '../../api/members';

export function useCatalogOptions(itemId: number): { value: number; label: string }[] {
  const { t } = useTranslation();
  const [catalogs, setCatalogs] = useState<{ value: number; label: string }[]>([]);
  useEffect(() => {
    catalogGroups(itemId).then(
      (list) =>
        setCatalogs((list ?? []).map((c) => ({ value: Number(c.cat_id), label: c.cat_name }))),
      () => setCatalogs([]),
    );
  }, [itemId]);
  return [{ value: 0, label: t('members.allCatalogs') }, ...catalogs];
}
