/** One team of the user's team list (name and whether they manage it), by route id. */
import { useEffect, useState } from 'react';
import { listTeams } from '../../api/teams';
import type { Team } from '../../api/types';

export function useTeam(teamId: number): Team | null | undefined {
  const [team, setTeam] = useState<Team | null | undefined>(undefined);
  useEffect(() => {
    listTeams().then(
      (list) => setTeam(list.find((t) => Number(t.id) === teamId) ?? null),
      () => setTeam(null),
    );
  }, [teamId]);
  return team;
}
