# GLM-5.3's decode server at launch; its pool backs the advertised context
# (the article does not give it: the playground's assumption).
docker run --gpus all --shm-size 32g --network host --privileged \
  -v /models:/models \
  lmsysorg/sglang:v0.5.20-cu129 \
  python3 -m sglang.launch_server \
    --model-path zai-org/GLM-5.3 \
    --trust-remote-code \
    --tp-size 8 \
    --context-length 1M \
    --max-total-tokens=1048576 \
    --page-size 1 \
    --mem-fraction-static 0.88 \
    --cuda-graph-max-bs 256 \
    --disaggregation-mode decode \
    --disaggregation-transfer-backend "mooncake" \
    --disaggregation-ib-device mlx5_0,mlx5_1,mlx5_2,mlx5_3 \
    --host 0.0.0.0 --port 30001
