# mailmoat's own image: one image for the web, the workers and the scheduler (compose.yaml).
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
RUN useradd --create-home --uid 10001 mailmoat
WORKDIR /app
COPY pyproject.toml README.md ./
COPY src ./src
RUN pip install --no-compile . "psycopg[binary]>=3.1"
USER mailmoat
# Every process reads MAILMOAT_DATABASE_URL, MAILMOAT_BROKER_URL and the key ring
# (MAILMOAT_SECRET_KEY or MAILMOAT_KEY_FILE); see docs/deploy.md.
EXPOSE 8025
ENTRYPOINT ["mailmoat"]
CMD ["up", "--host", "0.0.0.0"]
