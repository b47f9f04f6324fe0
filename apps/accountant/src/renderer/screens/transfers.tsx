import { Segmented, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { MovementForm } from "./transfers/movement-form";
import type { Mode } from "./transfers/movement-values";

export const TransfersScreen = () => {
  const { t } = useTranslation();
  const [mode, setMode] = useState<Mode>("transfer");
  return (
    <div>
      <Typography.Title level={1} style={{ marginTop: 0 }}>
        {t("transfers.title")}
      </Typography.Title>
      <Segmented
        aria-label={t("transfers.title")}
        value={mode}
        onChange={(value) => setMode(value as Mode)}
        options={[
          { value: "transfer", label: t("transfers.transfer") },
          { value: "exchange", label: t("transfers.exchange") },
        ]}
        style={{ marginBottom: 16 }}
      />
      <MovementForm key={mode} mode={mode} />
    </div>
  );
};
