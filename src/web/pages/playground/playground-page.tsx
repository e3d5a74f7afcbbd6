/**
 * /playground (docs/console.md#playground-page): the settings panel on the left (a drawer on
 * phones, opened with a button), the conversation with a clear-context action, and the
 * message box. Settings are kept locally.
 */
import { ClearOutlined, SendOutlined, SettingOutlined } from '@ant-design/icons';
import { Button, Card, Col, Drawer, Input, Row, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from '../../use-translation';
import { useIsMobile } from '../../layout/use-is-mobile';
import { loadSettings, saveSettings, type ChatSettings } from './chat-settings';
import { MessageList } from './message-list';
import { SettingsPanel } from './settings-panel';
import { useChat } from './use-chat';
import './playground.css';

export function PlaygroundPage() {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const [settings, setSettings] = useState<ChatSettings>(() => loadSettings(t('playground.defaultSystem')));
  const [panelOpen, setPanelOpen] = useState(false);
  const [draft, setDraft] = useState('');
  const { messages, busy, send, clear } = useChat(settings);

  const change = (next: ChatSettings) => {
    setSettings(next);
    saveSettings(next);
  };
  const submit = () => {
    if (!draft.trim() || busy) return;
    send(draft);
    setDraft('');
  };
  const panel = <SettingsPanel settings={settings} onChange={change} />;

  return (
    <Row gutter={[16, 16]} className="sy-playground">
      {!isMobile && (
        <Col flex="300px">
          <Card title={t('playground.settings')} size="small">
            {panel}
          </Card>
        </Col>
      )}
      <Col flex="auto" style={{ minWidth: 0 }}>
        <Card
          title={t('playground.title')}
          size="small"
          extra={
            <Space>
              {isMobile && <Button icon={<SettingOutlined />} onClick={() => setPanelOpen(true)} aria-label={t('playground.settings')} data-testid="playground-panel-toggle" />}
              <Button icon={<ClearOutlined />} onClick={clear} disabled={messages.length === 0} data-testid="playground-clear">
                {t('playground.clear')}
              </Button>
            </Space>
          }
          styles={{ body: { display: 'flex', flexDirection: 'column', gap: 12 } }}
        >
          <div className="sy-chat-scroll">
            <MessageList messages={messages} />
          </div>
          <Space.Compact style={{ width: '100%' }}>
            <Input.TextArea
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              onPressEnter={(e) => {
                if (!e.shiftKey) {
                  e.preventDefault();
                  submit();
                }
              }}
              autoSize={{ minRows: 1, maxRows: 6 }}
              placeholder={t('playground.inputPlaceholder')}
              data-testid="playground-input"
            />
            <Button type="primary" icon={<SendOutlined />} loading={busy} onClick={submit} data-testid="playground-send">
              {t('playground.send')}
            </Button>
          </Space.Compact>
        </Card>
      </Col>
      <Drawer open={isMobile && panelOpen} onClose={() => setPanelOpen(false)} title={t('playground.settings')} placement="left" width="85%">
        {panel}
      </Drawer>
    </Row>
  );
}
