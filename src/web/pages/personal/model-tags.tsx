/**
 * The models the user may call (GET /api/user/models) as tags: 10 shown until expanded,
 * collapsed by default, the choice kept locally. A click copies a name.
 */
import { Button, Card, Empty, Space, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../use-translation';
import { useCopy } from '../../components/use-copy';
import { readText, writeText } from '../../storage';
import { api } from '../../state/wire';
import { useApp } from '../../state/feedback-app';

/** Tags shown before collapsing (docs/console.md#personal-settings). */
export const MODELS_SHOWN = 10;
/** The remembered expanded state (a personal-page choice, like the shell's other stored items). */
const EXPANDED_KEY = 'personal-models-expanded';

export function ModelTags() {
  const { t } = useTranslation();
  const { message } = useApp();
  const copy = useCopy();
  const [models, setModels] = useState<string[] | undefined>();
  const [expanded, setExpanded] = useState(() => readText(EXPANDED_KEY) === 'true');

  useEffect(() => {
    api
      .request<string[] | null>('get', '/api/user/models')
      .then((list) => setModels(Array.isArray(list) ? list : []))
      .catch((err: Error) => {
        setModels([]);
        void message.error(err.message);
      });
  }, [message]);

  const toggle = () => {
    writeText(EXPANDED_KEY, String(!expanded));
    setExpanded(!expanded);
  };

  const list = models ?? [];
  const shown = expanded ? list : list.slice(0, MODELS_SHOWN);
  return (
    <Card title={t('personal.models.title')} loading={!models} data-testid="model-tags">
      {list.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('personal.models.empty')} />
      ) : (
        <Space direction="vertical" size={12} style={{ width: '100%' }}>
          <div className="sy-tag-cloud">
            {shown.map((name) => (
              <Tag key={name} className="sy-model-tag" onClick={() => void copy(name, t('personal.models.copied', { name }))}>
                {name}
              </Tag>
            ))}
          </div>
          {list.length > MODELS_SHOWN && (
            <Button type="link" size="small" style={{ padding: 0 }} onClick={toggle} data-testid="models-toggle">
              {expanded ? t('personal.models.collapse') : t('personal.models.expand', { count: list.length })}
            </Button>
          )}
        </Space>
      )}
    </Card>
  );
}
