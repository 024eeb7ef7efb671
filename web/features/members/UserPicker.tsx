/**
 * Picks one or several users by name (spec 000 §5: several at once; users already in the list
 * are not offered). Searches `user/allUser` as the user types: the server answers usernames
 * starting with 3+ typed characters, or the one account named exactly by a shorter entry, so an
 * empty box asks nothing.
 */
import { Select, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { allUsers } from '../../api/user';
import type { UserOption } from '../../api/types';

const DEBOUNCE_MS = 250;

export function UserPicker({
  value,
  onChange,
  exclude,
  multiple = true,
  id,
}: {
  value?: string[] | string;
  onChange?: (value: string[] | string) => void;
  /** Usernames not to offer (current members, oneself). */
  exclude: string[];
  multiple?: boolean;
  id?: string;
}) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [options, setOptions] = useState<UserOption[]>([]);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    let current = true;
    const term = search.trim();
    if (term === '') {
      setOptions([]);
      setLoading(false);
      return;
    }
    setLoading(true);
    const timer = setTimeout(() => {
      allUsers(term)
        .then(
          (list) => current && setOptions(list ?? []),
          () => current && setOptions([]),
        )
        .finally(() => current && setLoading(false));
    }, DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [search]);

  const excluded = new Set(exclude);
  return (
    <Select
      id={id}
      mode={multiple ? 'multiple' : undefined}
      showSearch={{ filterOption: false, onSearch: setSearch }}
      value={value}
      onChange={onChange}
      placeholder={t('members.pickUsers')}
      notFoundContent={loading ? <Spin size="small" /> : t('members.noUsers')}
      options={options
        .filter((u) => !excluded.has(u.username))
        .map((u) => ({
          value: u.username,
          label: u.name ? `${u.username} (${u.name})` : u.username,
        }))}
      style={{ width: '100%' }}
    />
  );
}
